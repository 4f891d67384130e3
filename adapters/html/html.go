// Package html is the built-in generic adapter of last resort: heuristics over the markup
// of pages with little structured data (OpenGraph and product meta tags, itemprop
// attributes, the page heading). It runs after the platform and JSON-LD adapters and only
// fills their gaps.
//
// This is the first cut; displayed prices near the buy button, availability phrases in
// several languages, breadcrumbs and category tiles come next.
package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the HTML heuristics adapter.
type Adapter struct{}

func (Adapter) Info() sdk.Info { return sdk.Info{Name: "html", Version: "1.0.0"} }

// Extract reads the product signals of the page's markup.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	root := page.HTML()
	meta := func(names ...string) string {
		for _, n := range names {
			if v := strings.TrimSpace(root.FindOne("//meta[@property='" + n + "' or @name='" + n + "']").Attr("content")); v != "" {
				return v
			}
		}
		return ""
	}
	itemprop := func(name string) string {
		n := root.FindOne("//*[@itemprop='" + name + "']")
		if v, ok := n.AttrOK("content"); ok {
			return strings.TrimSpace(v)
		}
		return n.Text()
	}
	ogType := strings.ToLower(meta("og:type"))
	amount := meta("product:price:amount", "og:price:amount")
	if amount == "" {
		amount = itemprop("price")
	}
	if ogType != "product" && ogType != "og:product" && amount == "" {
		return nil, sdk.NonProduct("no product markup")
	}
	p := &sdk.Product{}
	if t := meta("og:title"); t != "" {
		p.Title = &t
	} else if t := root.TextOf("//h1"); t != "" {
		p.Title = &t
	}
	if d := meta("og:description", "description"); d != "" {
		p.Description = &d
	}
	if b := meta("product:brand", "og:brand"); b != "" {
		p.Brand = &b
	}
	if u := root.FindOne("//link[@rel='canonical']").Attr("href"); u != "" {
		u = c.Resolve(u)
		p.CanonicalURL = &u
	}
	if f, ok := parsePrice(amount); ok {
		p.Price = &sdk.Price{Current: f, Currency: strings.ToUpper(meta("product:price:currency", "og:price:currency"))}
	}
	switch a := strings.ToLower(meta("product:availability", "og:availability")); {
	case a == "":
	case strings.Contains(a, "out") || strings.Contains(a, "oos"):
		f := false
		p.IsAvailable = &f
	default:
		t := true
		p.IsAvailable = &t
	}
	for i, img := range root.Find("//meta[@property='og:image' or @property='og:image:secure_url']/@content") {
		u := c.Resolve(img.Text())
		if u != "" && (len(p.Images) == 0 || p.Images[len(p.Images)-1].URL != u) {
			p.Images = append(p.Images, sdk.Image{URL: u, Position: i + 1})
		}
	}
	return p, nil
}

// parsePrice reads "19.90", "19,90", "1,299.00" and "1.299,00".
func parsePrice(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	switch {
	case lastComma > lastDot && len(s)-lastComma-1 != 3:
		s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	default:
		s = strings.ReplaceAll(s, ",", "")
	}
	var f float64
	var frac float64 = 0
	seenDot, digits := false, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
			if seenDot {
				frac++
				f += float64(r-'0') / pow10(frac)
			} else {
				f = f*10 + float64(r-'0')
			}
		case r == '.' && !seenDot:
			seenDot = true
		}
	}
	return f, digits > 0
}

func pow10(n float64) float64 {
	p := 1.0
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}
