package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract decides the product's fields with the ranker. A page is a product page when its
// markup says so (og:type product, a price meta tag or itemprop, a schema.org product), or
// when it shows a title with one purchase or one price by it (a listing has a button and
// a price per tile), or a stock line and a product code.
func (a Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	g := rank.Gather(c)
	model := a.Model
	if model == nil {
		model = rank.Default()
	}
	d := model.Rank(g)
	ogType := strings.ToLower(g.Meta("og:type"))
	buttons := g.BuyEnabled + g.BuyDisabled
	single := buttons > 0 && buttons <= 3 && g.Heading != "" ||
		g.HeadingPriceLevel >= 0 && g.HeadingPriceLevel <= 3 && g.PricesNearHeading <= 2
	if ogType != "product" && ogType != "og:product" && !g.MarkedPrice() && !g.SchemaProduct && !single &&
		!(g.Stated(rank.Availability) && g.Stated(rank.SKU)) {
		return nil, sdk.NonProduct("no product markup")
	}
	p := &sdk.Product{}
	if t, ok := d.Best(rank.Title); ok {
		p.Title = &t.Value
	}
	if !g.SchemaProduct {
		// Structured data describes a product better than meta tags do: the JSON-LD
		// adapter, which runs next, fills these from it.
		if v := g.Meta("og:description", "description"); v != "" {
			p.Description = &v
		}
		if v := g.Meta("product:brand", "og:brand"); v != "" {
			p.Brand = &v
		}
	}
	if u := page.HTML().SelectOne("link[rel=canonical]").Attr("href"); u != "" {
		u = c.Resolve(u)
		p.CanonicalURL = &u
	}
	stock, hasStock := d.Best(rank.Availability)
	if hasStock {
		in := stock.Value == rank.InStock
		p.IsAvailable = &in
	}
	soldOut := hasStock && stock.Value == rank.OutOfStock && stock.Source != rank.Implied
	if price, ok := d.Best(rank.Price); ok && !(soldOut && price.Source == rank.Element) {
		// (A sold-out product's page shows other offers' and related products' prices,
		// not its own: a price it only shows, and no markup states, is not taken.)
		p.Price = &sdk.Price{Current: price.Amount}
		if cur, ok := d.Best(rank.Currency); ok {
			p.Price.Currency = cur.Value
		}
		if was, ok := d.CompareAt(); ok {
			p.Price.CompareAt = &was
		}
	}
	if sku, ok := d.Best(rank.SKU); ok {
		p.SKU = &sku.Value
	}
	for i, u := range g.Images {
		p.Images = append(p.Images, sdk.Image{URL: u, Position: i + 1})
	}
	return p, nil
}
