package demostore

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
)

//go:embed templates/*.html
var templateFS embed.FS

var templates = template.Must(template.New("").ParseFS(templateFS, "templates/*.html"))

func (s *Store) render(w io.Writer, name string, data any) {
	if rw, ok := w.(http.ResponseWriter); ok && rw.Header().Get("Content-Type") == "" {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	if err := templates.ExecuteTemplate(w, name, data); err != nil {
		fmt.Fprintf(w, "<!-- template %s: %v -->", name, err)
	}
}

// The values templates see.

type link struct {
	URL, Text string
}

type tile struct {
	URL, Title, Price, CompareAt, Image string
	Width, Height                       int
	SoldOut                             bool
}

type imageView struct {
	Src, Alt      string
	Width, Height int
}

type variantView struct {
	ID                int64
	Title, Price, SKU string
	Available         bool
}

type productView struct {
	Title, Vendor, Type, SKU string
	Body                     template.HTML
	Price, CompareAt         string // formatted for display, CompareAt "" when not on sale
	Amount, CurrencyCode     string // "49.99", "USD"
	Available                bool
	Images                   []imageView
	Variants                 []variantView
	Related                  []tile
	LeadVariantID            int64
}

type pageView struct {
	Store, Base, Title, Canonical, Currency string
	ShopID                                  int64
	Nav, Breadcrumbs                        []link
	Heading, Intro                          string
	Product                                 *productView
	Tiles                                   []tile
	Page, Pages                             int
	Prev, Next                              string
	JSONLD                                  []template.JS
}

// jsonScript marshals v for a <script type="application/ld+json"> element. encoding/json
// escapes <, > and &, so the text cannot close the element.
func jsonScript(v any) template.JS {
	b, err := json.Marshal(v)
	if err != nil {
		return template.JS("{}")
	}
	return template.JS(b)
}

func (s *Store) nav(r *http.Request) []link {
	var out []link
	for _, c := range s.cat.Collections() {
		out = append(out, link{base(r) + s.CategoryPath(c.Handle), c.Title})
		if len(out) == 12 {
			break
		}
	}
	return out
}

// imageURL is where the kind shows an image: Shopify keeps the CDN URL; the other kinds
// serve generated images themselves (a loaded catalogue keeps its real URLs).
func (s *Store) imageURL(r *http.Request, p Product, im Image) string {
	if s.opts.Kind == Shopify || s.cat.loaded != nil {
		return im.Src
	}
	return base(r) + "/media/" + p.Handle + "/" + strconv.Itoa(im.Position) + ".svg"
}

func (s *Store) tile(r *http.Request, i int) tile {
	p := s.cat.Product(i)
	v := p.LeadVariant()
	t := tile{URL: s.productLink(r, p.Handle), Title: p.Title, Price: s.formatPrice(v.Price), SoldOut: !p.Available()}
	if v.CompareAtPrice > v.Price {
		t.CompareAt = s.formatPrice(v.CompareAtPrice)
	}
	if len(p.Images) > 0 {
		im := p.Images[0]
		t.Image, t.Width, t.Height = s.imageURL(r, p, im), im.Width, im.Height
	}
	return t
}

func (s *Store) productView(r *http.Request, p Product) *productView {
	v := p.LeadVariant()
	pv := &productView{Title: p.Title, Vendor: p.Vendor, Type: p.ProductType, SKU: v.SKU, Body: template.HTML(p.BodyHTML),
		Price: s.formatPrice(v.Price), Amount: v.Price.String(), CurrencyCode: s.currency, Available: p.Available(),
		LeadVariantID: v.ID}
	if v.CompareAtPrice > v.Price {
		pv.CompareAt = s.formatPrice(v.CompareAtPrice)
	}
	for _, im := range p.Images {
		pv.Images = append(pv.Images, imageView{s.imageURL(r, p, im), im.Alt, im.Width, im.Height})
	}
	for _, vr := range p.Variants {
		pv.Variants = append(pv.Variants, variantView{vr.ID, vr.Title, s.formatPrice(vr.Price), vr.SKU, vr.Available})
	}
	pv.Related = s.related(r, p)
	return pv
}

// related picks up to four other products of the same category, for the "You may also
// like" block whose prices trap extractors that take the first price on the page.
func (s *Store) related(r *http.Request, p Product) []tile {
	var out []tile
	for _, i := range s.relatedIndexes(p) {
		out = append(out, s.tile(r, i))
	}
	return out
}

// relatedIndexes are the catalogue indexes of up to four other products of p's category.
func (s *Store) relatedIndexes(p Product) []int {
	col, ok := s.cat.Collection(p.Category)
	if !ok {
		return nil
	}
	n, at := s.cat.members(col)
	var out []int
	for k := 1; k <= n && len(out) < 4; k++ {
		i := at((p.Index*7 + k*13) % n)
		if i == p.Index {
			continue
		}
		out = append(out, i)
	}
	return out
}

// breadcrumbs: Home > Category > Product.
func (s *Store) breadcrumbs(r *http.Request, p Product) []link {
	out := []link{{base(r) + "/", "Home"}}
	if col, ok := s.cat.Collection(p.Category); ok && p.Category != "" {
		out = append(out, link{base(r) + s.CategoryPath(col.Handle), col.Title})
	}
	return append(out, link{base(r) + s.productPath(p.Handle), p.Title})
}

// listing fills the tiles and pagination of a category page; ok is false past the last page.
func (s *Store) listing(r *http.Request, v *pageView, handle string) (Collection, bool) {
	col, found := s.cat.Collection(handle)
	if !found {
		return col, false
	}
	n, at := s.cat.members(col)
	page := pageParam(r)
	pages := max(1, (n+s.pageSize-1)/s.pageSize)
	if page > pages {
		return col, false
	}
	v.Page, v.Pages = page, pages
	for k := (page - 1) * s.pageSize; k < n && k < page*s.pageSize; k++ {
		v.Tiles = append(v.Tiles, s.tile(r, at(k)))
	}
	u := base(r) + s.CategoryPath(handle)
	v.Canonical = u
	if page > 1 {
		v.Canonical = u + "?page=" + strconv.Itoa(page)
		v.Prev = u
		if page > 2 {
			v.Prev = u + "?page=" + strconv.Itoa(page-1)
		}
	}
	if page < pages {
		v.Next = u + "?page=" + strconv.Itoa(page+1)
	}
	return col, true
}

// mediaImage serves a placeholder SVG for /media/{handle}/{n}.svg.
func (s *Store) mediaImage(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, ".svg") {
		s.notFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	h := 0
	for _, c := range r.URL.Path {
		h = h*31 + int(c)
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">`+
		`<rect width="800" height="800" fill="hsl(%d,35%%,82%%)"/><circle cx="400" cy="400" r="220" fill="hsl(%d,40%%,60%%)"/></svg>`+"\n",
		h%360, (h/7)%360)
}

// contentPage serves /pages/{handle}.
func (s *Store) contentPage(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimPrefix(r.URL.Path, "/pages/")
	for _, p := range contentPages {
		if p.handle == handle {
			s.render(w, "content", pageView{Store: s.name, Base: base(r), Title: p.title + " – " + s.name,
				Canonical: base(r) + r.URL.Path, Heading: p.title, Intro: p.text, Nav: s.nav(r), ShopID: s.shopID,
				Currency: s.currency})
			return
		}
	}
	s.notFound(w, r)
}

var contentPages = []struct{ handle, title, text string }{
	{"about-us", "About us", "We are a small team who care about good things made well."},
	{"contact", "Contact", "Write to us any time; we answer within a working day."},
	{"shipping-returns", "Shipping & returns", "Free shipping over $75. Returns within 30 days."},
}
