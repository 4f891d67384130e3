package demostore

import (
	"net/http"
	"strconv"
	"strings"
)

// The Store API of the WooCommerce kind (/wp-json/wc/store/v1/), in the shapes
// WooCommerce answers: products with prices in minor units, their paging in the
// X-WP-Total and X-WP-TotalPages headers, and the product categories with their counts.

// wooAPIMaxPage is the most products the Store API answers a page.
const wooAPIMaxPage = 100

type wooAPIPrices struct {
	Price             string         `json:"price"`
	RegularPrice      string         `json:"regular_price"`
	SalePrice         string         `json:"sale_price"`
	PriceRange        *wooPriceRange `json:"price_range"`
	CurrencyCode      string         `json:"currency_code"`
	CurrencySymbol    string         `json:"currency_symbol"`
	CurrencyMinorUnit int            `json:"currency_minor_unit"`
	DecimalSeparator  string         `json:"currency_decimal_separator"`
	ThousandSeparator string         `json:"currency_thousand_separator"`
	CurrencyPrefix    string         `json:"currency_prefix"`
	CurrencySuffix    string         `json:"currency_suffix"`
}

type wooPriceRange struct {
	MinAmount string `json:"min_amount"`
	MaxAmount string `json:"max_amount"`
}

type wooAPIImage struct {
	ID        int    `json:"id"`
	Src       string `json:"src"`
	Thumbnail string `json:"thumbnail"`
	Srcset    string `json:"srcset"`
	Sizes     string `json:"sizes"`
	Name      string `json:"name"`
	Alt       string `json:"alt"`
}

type wooAPITerm struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
	Link string `json:"link"`
}

type wooAPIAttribute struct {
	ID            int          `json:"id"`
	Name          string       `json:"name"`
	Taxonomy      string       `json:"taxonomy"`
	HasVariations bool         `json:"has_variations"`
	Terms         []wooAPITerm `json:"terms"`
}

type wooAPIVariation struct {
	ID         int                 `json:"id"`
	Attributes []map[string]string `json:"attributes"`
}

type wooAPIProduct struct {
	ID               int               `json:"id"`
	Name             string            `json:"name"`
	Slug             string            `json:"slug"`
	Parent           int               `json:"parent"`
	Type             string            `json:"type"`
	Variation        string            `json:"variation"`
	Permalink        string            `json:"permalink"`
	SKU              string            `json:"sku"`
	ShortDescription string            `json:"short_description"`
	Description      string            `json:"description"`
	OnSale           bool              `json:"on_sale"`
	Prices           wooAPIPrices      `json:"prices"`
	PriceHTML        string            `json:"price_html"`
	AverageRating    string            `json:"average_rating"`
	ReviewCount      int               `json:"review_count"`
	Images           []wooAPIImage     `json:"images"`
	Categories       []wooAPITerm      `json:"categories"`
	Tags             []wooAPITerm      `json:"tags"`
	Attributes       []wooAPIAttribute `json:"attributes"`
	Variations       []wooAPIVariation `json:"variations"`
	HasOptions       bool              `json:"has_options"`
	IsPurchasable    bool              `json:"is_purchasable"`
	IsInStock        bool              `json:"is_in_stock"`
	IsOnBackorder    bool              `json:"is_on_backorder"`
	LowStock         *int              `json:"low_stock_remaining"`
	SoldIndividually bool              `json:"sold_individually"`
	AddToCart        map[string]any    `json:"add_to_cart"`
	Extensions       map[string]any    `json:"extensions"`
}

// minor writes an amount in minor units, as the Store API does ("1250" is 12,50 €).
func minor(m Money) string { return strconv.FormatInt(int64(m), 10) }

func (s *Store) wooAPIProduct(r *http.Request, i int) wooAPIProduct {
	p := s.cat.Product(i)
	it := s.wooItem(p)
	u := base(r) + s.productPath(p.Handle)
	out := wooAPIProduct{ID: it.id, Name: p.Title, Slug: p.Handle, Type: "simple", Permalink: u, SKU: p.LeadVariant().SKU,
		ShortDescription: "<p>" + plainText(p.BodyHTML) + "</p>", Description: p.BodyHTML, OnSale: it.lowRegular > it.low,
		PriceHTML: string(s.priceHTML(it)), AverageRating: "0", IsPurchasable: true, IsInStock: p.Available(),
		Images: []wooAPIImage{}, Categories: []wooAPITerm{}, Tags: []wooAPITerm{}, Attributes: []wooAPIAttribute{},
		Variations: []wooAPIVariation{}, Extensions: map[string]any{},
		AddToCart: map[string]any{"text": "In den Warenkorb", "description": "„" + p.Title + "“ zu deinem Warenkorb hinzufügen",
			"url": "?add-to-cart=" + strconv.Itoa(it.id), "minimum": 1, "maximum": 9999, "multiple_of": 1}}
	out.Prices = wooAPIPrices{Price: minor(it.low), RegularPrice: minor(it.lowRegular), SalePrice: minor(it.low),
		CurrencyCode: s.currency, CurrencySymbol: currencySymbol(s.currency), CurrencyMinorUnit: 2, DecimalSeparator: ",",
		ThousandSeparator: ".", CurrencySuffix: " " + currencySymbol(s.currency)}
	if it.variable {
		out.Type, out.HasOptions, out.SKU = "variable", true, p.Handle
		out.AddToCart["text"] = "Ausführung wählen"
		out.AddToCart["url"] = u
		if it.low != it.high {
			out.Prices.PriceRange = &wooPriceRange{MinAmount: minor(it.low), MaxAmount: minor(it.high)}
		}
		for k, o := range p.Options {
			taxonomy, label := wooAttribute(o.Name)
			a := wooAPIAttribute{ID: k + 1, Name: label, Taxonomy: taxonomy, HasVariations: true}
			for j, val := range o.Values {
				a.Terms = append(a.Terms, wooAPITerm{ID: 100*(k+1) + j, Name: val, Slug: slug(val)})
			}
			out.Attributes = append(out.Attributes, a)
		}
		for k, v := range p.Variants {
			vr := wooAPIVariation{ID: wooVariationID(i, k)}
			for oi, o := range p.Options {
				_, label := wooAttribute(o.Name)
				if oi < len(v.OptionValues) {
					vr.Attributes = append(vr.Attributes, map[string]string{"name": label, "value": slug(v.OptionValues[oi])})
				}
			}
			out.Variations = append(out.Variations, vr)
		}
	}
	for _, im := range p.Images {
		out.Images = append(out.Images, wooAPIImage{ID: int(im.ID % 100_000), Src: wooImage(r, p, im, ""),
			Thumbnail: wooImage(r, p, im, "-324x324"), Name: p.Handle + "-" + strconv.Itoa(im.Position) + ".jpg", Alt: im.Alt})
	}
	if col, ok := s.cat.Collection(p.Category); ok && p.Category != "" {
		out.Categories = append(out.Categories, wooAPITerm{ID: wooCategoryID(s.cat, col.Handle), Name: col.Title, Slug: col.Handle,
			Link: base(r) + s.CategoryPath(col.Handle)})
	}
	return out
}

// wooAPIProducts answers /products?category=ID&per_page=N&page=P: the products of the
// categories named (by id, comma-separated), or every product.
func (s *Store) wooAPIProducts(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	perPage, page := 10, 1
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > wooAPIMaxPage {
			wooAPIError(w, http.StatusBadRequest, "rest_invalid_param", "Ungültige(r) Parameter: per_page")
			return
		}
		perPage = n
	}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			wooAPIError(w, http.StatusBadRequest, "rest_invalid_param", "Ungültige(r) Parameter: page")
			return
		}
		page = n
	}
	var members []int
	if v := q.Get("category"); v != "" {
		seen := map[int]bool{}
		for id := range strings.SplitSeq(v, ",") {
			for k, c := range s.cat.Collections() {
				if strconv.Itoa(wooCategoryID(s.cat, c.Handle)) != strings.TrimSpace(id) {
					continue
				}
				for _, i := range s.cat.Collections()[k].Products {
					if !seen[int(i)] {
						seen[int(i)] = true
						members = append(members, int(i))
					}
				}
			}
		}
	} else {
		for i := range s.cat.Len() {
			members = append(members, i)
		}
	}
	total := len(members)
	pages := (total + perPage - 1) / perPage
	out := []wooAPIProduct{}
	for k := (page - 1) * perPage; k < min(page*perPage, total); k++ {
		out = append(out, s.wooAPIProduct(r, members[k]))
	}
	h := w.Header()
	h.Set("X-WP-Total", strconv.Itoa(total))
	h.Set("X-WP-TotalPages", strconv.Itoa(pages))
	if page < pages {
		next := *r.URL
		nq := next.Query()
		nq.Set("page", strconv.Itoa(page+1))
		next.RawQuery = nq.Encode()
		h.Set("Link", "<"+base(r)+next.String()+`>; rel="next"`)
	}
	writeJSON(w, out)
}

// wooAPICategories answers /products/categories: every category that holds products.
func (s *Store) wooAPICategories(w http.ResponseWriter, r *http.Request) {
	type category struct {
		ID          int    `json:"id"`
		Name        string `json:"name"`
		Slug        string `json:"slug"`
		Description string `json:"description"`
		Parent      int    `json:"parent"`
		Count       int    `json:"count"`
		Image       any    `json:"image"`
		ReviewCount int    `json:"review_count"`
		Permalink   string `json:"permalink"`
	}
	out := []category{}
	for _, c := range s.cat.Collections() {
		if len(c.Products) == 0 {
			continue
		}
		out = append(out, category{ID: wooCategoryID(s.cat, c.Handle), Name: c.Title, Slug: c.Handle, Description: c.Description,
			Count: len(c.Products), Permalink: base(r) + s.CategoryPath(c.Handle)})
	}
	writeJSON(w, out)
}

func wooAPIError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	writeJSON(w, map[string]any{"code": code, "message": message, "data": map[string]any{"status": status}})
}
