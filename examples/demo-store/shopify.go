package demostore

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Shopify storefront limits.
const (
	shopifyDefaultLimit = 30
	shopifyMaxLimit     = 250
	shopifyMaxOffset    = 25_000 // page*limit above this is refused with 400
	sitemapChunk        = 5_000  // URLs per products sitemap file
)

const shopifyTime = "2006-01-02T15:04:05-07:00"

func (s *Store) shopifyRoute(path string) (Route, http.HandlerFunc) {
	switch path {
	case "/":
		return RouteHome, s.shopifyHome
	case "/products.json":
		return RouteProductsJSON, s.shopifyProductsJSON
	case "/collections.json":
		return RouteCollectionsJSON, s.shopifyCollectionsJSON
	case "/collections", "/collections/":
		return RoutePage, s.shopifyCollectionsPage
	case "/robots.txt":
		return RouteRobots, s.robotsTxt
	case "/sitemap.xml", "/sitemap_collections_1.xml", "/sitemap_pages_1.xml":
		return RouteSitemap, s.shopifySitemap
	}
	switch {
	case strings.HasPrefix(path, "/sitemap_products_") && strings.HasSuffix(path, ".xml"):
		return RouteSitemap, s.shopifySitemap
	case strings.HasPrefix(path, "/pages/"):
		return RoutePage, s.contentPage
	case strings.HasPrefix(path, "/products/"):
		rest := strings.TrimPrefix(path, "/products/")
		switch {
		case strings.HasSuffix(rest, ".json"):
			return RouteProductJSON, s.shopifyProductJSON
		case strings.HasSuffix(rest, ".js"):
			return RouteProductJS, s.shopifyProductJS
		}
		return RouteProductPage, s.shopifyProductPage
	case strings.HasPrefix(path, "/collections/"):
		rest := strings.TrimPrefix(path, "/collections/")
		handle, tail, _ := strings.Cut(rest, "/")
		switch {
		case handle == "all" && s.opts.Faults.NoAllProducts:
			return RouteOther, nil
		case tail == "products.json":
			return RouteCollectionProductsJSON, s.shopifyCollectionProductsJSON
		case tail == "":
			return RouteCategoryPage, func(w http.ResponseWriter, r *http.Request) { s.shopifyCollectionPage(w, r, handle) }
		case strings.HasPrefix(tail, "products/") && !strings.Contains(tail[len("products/"):], "/"):
			// Themes link products inside collections; the canonical URL is /products/{handle}.
			return RouteProductPage, s.shopifyProductPage
		}
	}
	return RouteOther, nil
}

// The storefront JSON shapes, field for field and in Shopify's order.

type shopifyImage struct {
	ID         int64   `json:"id"`
	CreatedAt  string  `json:"created_at"`
	Position   int     `json:"position"`
	UpdatedAt  string  `json:"updated_at"`
	ProductID  int64   `json:"product_id"`
	VariantIDs []int64 `json:"variant_ids"`
	Src        string  `json:"src"`
	Width      int     `json:"width"`
	Height     int     `json:"height"`
}

type shopifyVariantImage struct {
	ID         int64   `json:"id"`
	ProductID  int64   `json:"product_id"`
	Position   int     `json:"position"`
	CreatedAt  string  `json:"created_at"`
	UpdatedAt  string  `json:"updated_at"`
	Alt        *string `json:"alt"`
	Width      int     `json:"width"`
	Height     int     `json:"height"`
	Src        string  `json:"src"`
	VariantIDs []int64 `json:"variant_ids"`
}

type shopifyVariant struct {
	ID               int64                `json:"id"`
	Title            string               `json:"title"`
	Option1          *string              `json:"option1"`
	Option2          *string              `json:"option2"`
	Option3          *string              `json:"option3"`
	SKU              string               `json:"sku"`
	RequiresShipping bool                 `json:"requires_shipping"`
	Taxable          bool                 `json:"taxable"`
	FeaturedImage    *shopifyVariantImage `json:"featured_image"`
	Available        bool                 `json:"available"`
	Price            string               `json:"price"`
	Grams            int                  `json:"grams"`
	CompareAtPrice   *string              `json:"compare_at_price"`
	Position         int                  `json:"position"`
	ProductID        int64                `json:"product_id"`
	CreatedAt        string               `json:"created_at"`
	UpdatedAt        string               `json:"updated_at"`
}

type shopifyOption struct {
	Name     string   `json:"name"`
	Position int      `json:"position"`
	Values   []string `json:"values"`
}

type shopifyProduct struct {
	ID          int64            `json:"id"`
	Title       string           `json:"title"`
	Handle      string           `json:"handle"`
	BodyHTML    string           `json:"body_html"`
	PublishedAt string           `json:"published_at"`
	CreatedAt   string           `json:"created_at"`
	UpdatedAt   string           `json:"updated_at"`
	Vendor      string           `json:"vendor"`
	ProductType string           `json:"product_type"`
	Tags        []string         `json:"tags"`
	Variants    []shopifyVariant `json:"variants"`
	Images      []shopifyImage   `json:"images"`
	Options     []shopifyOption  `json:"options"`
}

func ts(t time.Time) string { return t.Format(shopifyTime) }

func optionValue(v Variant, k int) *string {
	if k < len(v.OptionValues) {
		s := v.OptionValues[k]
		return &s
	}
	return nil
}

// listingProduct is a product as /products.json and /collections/{h}/products.json show it.
func listingProduct(p Product) shopifyProduct {
	sp := shopifyProduct{
		ID: p.ID, Title: p.Title, Handle: p.Handle, BodyHTML: p.BodyHTML,
		PublishedAt: ts(p.PublishedAt), CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt),
		Vendor: p.Vendor, ProductType: p.ProductType, Tags: nonNil(p.Tags),
		Variants: []shopifyVariant{}, Images: []shopifyImage{}, Options: []shopifyOption{},
	}
	for k, v := range p.Variants {
		sv := shopifyVariant{
			ID: v.ID, Title: v.Title, Option1: optionValue(v, 0), Option2: optionValue(v, 1), Option3: optionValue(v, 2),
			SKU: v.SKU, RequiresShipping: true, Taxable: true, Available: v.Available,
			Price: v.Price.String(), Grams: v.Grams, CompareAtPrice: v.compareAt(), Position: k + 1,
			ProductID: p.ID, CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt),
		}
		if im, ok := p.image(v.ImageID); ok && v.ImageID != 0 {
			var alt *string
			if im.Alt != "" {
				alt = &im.Alt
			}
			sv.FeaturedImage = &shopifyVariantImage{ID: im.ID, ProductID: p.ID, Position: im.Position,
				CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt), Alt: alt, Width: im.Width, Height: im.Height,
				Src: im.Src, VariantIDs: nonNil(im.VariantIDs)}
		}
		sp.Variants = append(sp.Variants, sv)
	}
	for _, im := range p.Images {
		sp.Images = append(sp.Images, shopifyImage{ID: im.ID, CreatedAt: ts(p.CreatedAt), Position: im.Position,
			UpdatedAt: ts(p.UpdatedAt), ProductID: p.ID, VariantIDs: nonNil(im.VariantIDs), Src: im.Src,
			Width: im.Width, Height: im.Height})
	}
	for k, o := range p.Options {
		sp.Options = append(sp.Options, shopifyOption{Name: o.Name, Position: k + 1, Values: nonNil(o.Values)})
	}
	return sp
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// paging reads limit and page as Shopify does: limit defaults to 30 and is clamped to
// 250; page starts at 1. ok is false when page*limit passes the 25,000 cap.
func paging(r *http.Request) (limit, page int, ok bool) {
	q := r.URL.Query()
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = shopifyDefaultLimit
	}
	limit = min(limit, shopifyMaxLimit)
	page, err = strconv.Atoi(q.Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	return limit, page, page*limit <= shopifyMaxOffset
}

func (s *Store) refuseOffset(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusBadRequest)
	w.Write([]byte(`{"errors":"Page * Limit exceeds the 25000 limit."}` + "\n"))
}

// writeProducts writes {"products": [...]} for the k-th..(k+limit)-th members. Only the
// store-wide /products.json is capped at 25,000: collections are how Shopify clients walk
// larger catalogs.
func (s *Store) writeProducts(w http.ResponseWriter, r *http.Request, count int, at func(int) int, capped bool) {
	limit, page, ok := paging(r)
	if !ok && capped {
		s.refuseOffset(w)
		return
	}
	out := struct {
		Products []shopifyProduct `json:"products"`
	}{Products: []shopifyProduct{}}
	for k := (page - 1) * limit; k < count && k < page*limit; k++ {
		i := at(k)
		s.markSeen(i)
		out.Products = append(out.Products, listingProduct(s.cat.Product(i)))
	}
	writeJSON(w, out)
}

func (s *Store) shopifyProductsJSON(w http.ResponseWriter, r *http.Request) {
	s.writeProducts(w, r, s.cat.Len(), func(k int) int { return k }, true)
}

func (s *Store) shopifyCollectionProductsJSON(w http.ResponseWriter, r *http.Request) {
	handle, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/collections/"), "/")
	col, ok := s.cat.Collection(handle)
	if !ok {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"errors":"Not Found"}` + "\n"))
		return
	}
	n, at := s.cat.members(col)
	s.writeProducts(w, r, n, at, false)
}

type shopifyCollection struct {
	ID            int64           `json:"id"`
	Title         string          `json:"title"`
	Handle        string          `json:"handle"`
	Description   string          `json:"description"`
	PublishedAt   string          `json:"published_at"`
	UpdatedAt     string          `json:"updated_at"`
	Image         *shopifyCollImg `json:"image"`
	ProductsCount int             `json:"products_count"`
}

type shopifyCollImg struct {
	ID        int64   `json:"id"`
	CreatedAt string  `json:"created_at"`
	Src       string  `json:"src"`
	Alt       *string `json:"alt"`
}

func (s *Store) shopifyCollectionsJSON(w http.ResponseWriter, r *http.Request) {
	limit, page, ok := paging(r)
	if !ok {
		s.refuseOffset(w)
		return
	}
	cols := s.cat.Collections()
	out := struct {
		Collections []shopifyCollection `json:"collections"`
	}{Collections: []shopifyCollection{}}
	for k := (page - 1) * limit; k < len(cols) && k < page*limit; k++ {
		c := cols[k]
		sc := shopifyCollection{ID: c.ID, Title: c.Title, Handle: c.Handle, Description: c.Description,
			PublishedAt: ts(epoch), UpdatedAt: ts(epoch.Add(24 * time.Hour)), ProductsCount: len(c.Products)}
		if len(c.Products) > 0 {
			p := s.cat.Product(int(c.Products[0]))
			if len(p.Images) > 0 {
				sc.Image = &shopifyCollImg{ID: c.ID + 1_000_000, CreatedAt: ts(epoch), Src: p.Images[0].Src}
			}
		}
		out.Collections = append(out.Collections, sc)
	}
	writeJSON(w, out)
}

// productFromPath finds the product of /products/{handle}[.json|.js] or
// /collections/{c}/products/{handle}, serving the special handles itself.
func (s *Store) productFromPath(w http.ResponseWriter, r *http.Request, prefix, format string) (Product, bool) {
	path := r.URL.Path
	if k := strings.LastIndex(path, prefix); k >= 0 {
		path = path[k+len(prefix):]
	}
	handle := strings.TrimSuffix(path, format)
	if s.specialProduct(w, r, handle, format) {
		return Product{}, false
	}
	if handle == HandleSlow {
		if s.cat.Len() == 0 {
			s.notFound(w, r)
			return Product{}, false
		}
		s.markSeen(0)
		return s.cat.Product(0), true
	}
	i, ok := s.cat.Lookup(handle)
	if !ok {
		if format == "" {
			s.notFound(w, r)
		} else {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"errors":"Not Found"}` + "\n"))
		}
		return Product{}, false
	}
	s.markSeen(i)
	return s.cat.Product(i), true
}

// The /products/{handle}.json shape: tags are one comma-separated string, variants carry
// image_id and no "available", options have ids, and there is a top-level "image".
type shopifySingleVariant struct {
	ID                  int64   `json:"id"`
	ProductID           int64   `json:"product_id"`
	Title               string  `json:"title"`
	Price               string  `json:"price"`
	SKU                 string  `json:"sku"`
	Position            int     `json:"position"`
	CompareAtPrice      *string `json:"compare_at_price"`
	FulfillmentService  string  `json:"fulfillment_service"`
	InventoryManagement string  `json:"inventory_management"`
	Option1             *string `json:"option1"`
	Option2             *string `json:"option2"`
	Option3             *string `json:"option3"`
	CreatedAt           string  `json:"created_at"`
	UpdatedAt           string  `json:"updated_at"`
	Taxable             bool    `json:"taxable"`
	Barcode             string  `json:"barcode"`
	Grams               int     `json:"grams"`
	ImageID             *int64  `json:"image_id"`
	Weight              float64 `json:"weight"`
	WeightUnit          string  `json:"weight_unit"`
	RequiresShipping    bool    `json:"requires_shipping"`
	PriceCurrency       string  `json:"price_currency"`
}

type shopifySingleOption struct {
	ID        int64    `json:"id"`
	ProductID int64    `json:"product_id"`
	Name      string   `json:"name"`
	Position  int      `json:"position"`
	Values    []string `json:"values"`
}

type shopifySingleImage struct {
	ID         int64   `json:"id"`
	ProductID  int64   `json:"product_id"`
	Position   int     `json:"position"`
	CreatedAt  string  `json:"created_at"`
	UpdatedAt  string  `json:"updated_at"`
	Alt        *string `json:"alt"`
	Width      int     `json:"width"`
	Height     int     `json:"height"`
	Src        string  `json:"src"`
	VariantIDs []int64 `json:"variant_ids"`
}

type shopifySingle struct {
	ID             int64                  `json:"id"`
	Title          string                 `json:"title"`
	BodyHTML       string                 `json:"body_html"`
	Vendor         string                 `json:"vendor"`
	ProductType    string                 `json:"product_type"`
	CreatedAt      string                 `json:"created_at"`
	Handle         string                 `json:"handle"`
	UpdatedAt      string                 `json:"updated_at"`
	PublishedAt    string                 `json:"published_at"`
	TemplateSuffix string                 `json:"template_suffix"`
	PublishedScope string                 `json:"published_scope"`
	Tags           string                 `json:"tags"`
	Variants       []shopifySingleVariant `json:"variants"`
	Options        []shopifySingleOption  `json:"options"`
	Images         []shopifySingleImage   `json:"images"`
	Image          *shopifySingleImage    `json:"image"`
}

func (s *Store) shopifyProductJSON(w http.ResponseWriter, r *http.Request) {
	p, ok := s.productFromPath(w, r, "/products/", ".json")
	if !ok {
		return
	}
	out := shopifySingle{ID: p.ID, Title: p.Title, BodyHTML: p.BodyHTML, Vendor: p.Vendor, ProductType: p.ProductType,
		CreatedAt: ts(p.CreatedAt), Handle: p.Handle, UpdatedAt: ts(p.UpdatedAt), PublishedAt: ts(p.PublishedAt),
		PublishedScope: "web", Tags: strings.Join(p.Tags, ", "),
		Variants: []shopifySingleVariant{}, Options: []shopifySingleOption{}, Images: []shopifySingleImage{}}
	for k, v := range p.Variants {
		sv := shopifySingleVariant{ID: v.ID, ProductID: p.ID, Title: v.Title, Price: v.Price.String(), SKU: v.SKU,
			Position: k + 1, CompareAtPrice: v.compareAt(), FulfillmentService: "manual",
			InventoryManagement: "shopify", Option1: optionValue(v, 0), Option2: optionValue(v, 1), Option3: optionValue(v, 2),
			CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt), Taxable: true, Grams: v.Grams,
			Weight: float64(v.Grams) / 1000, WeightUnit: "kg", RequiresShipping: true, PriceCurrency: s.currency}
		if v.ImageID != 0 {
			id := v.ImageID
			sv.ImageID = &id
		}
		out.Variants = append(out.Variants, sv)
	}
	for k, o := range p.Options {
		out.Options = append(out.Options, shopifySingleOption{ID: p.ID*10 + int64(k), ProductID: p.ID, Name: o.Name,
			Position: k + 1, Values: nonNil(o.Values)})
	}
	for _, im := range p.Images {
		var alt *string
		if im.Alt != "" {
			a := im.Alt
			alt = &a
		}
		out.Images = append(out.Images, shopifySingleImage{ID: im.ID, ProductID: p.ID, Position: im.Position,
			CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt), Alt: alt, Width: im.Width, Height: im.Height,
			Src: im.Src, VariantIDs: nonNil(im.VariantIDs)})
	}
	if len(out.Images) > 0 {
		out.Image = &out.Images[0]
	}
	writeJSON(w, map[string]any{"product": out})
}

// The /products/{handle}.js (AJAX API) shape: prices in integer cents, protocol-relative
// image URLs, options as {name, position, values}.
type shopifyJSVariant struct {
	ID                     int64                `json:"id"`
	Title                  string               `json:"title"`
	Option1                *string              `json:"option1"`
	Option2                *string              `json:"option2"`
	Option3                *string              `json:"option3"`
	SKU                    string               `json:"sku"`
	RequiresShipping       bool                 `json:"requires_shipping"`
	Taxable                bool                 `json:"taxable"`
	FeaturedImage          *shopifyVariantImage `json:"featured_image"`
	Available              bool                 `json:"available"`
	Name                   string               `json:"name"`
	PublicTitle            *string              `json:"public_title"`
	Options                []string             `json:"options"`
	Price                  int64                `json:"price"`
	Weight                 int                  `json:"weight"`
	CompareAtPrice         *int64               `json:"compare_at_price"`
	InventoryManagement    string               `json:"inventory_management"`
	Barcode                string               `json:"barcode"`
	RequiresSellingPlan    bool                 `json:"requires_selling_plan"`
	SellingPlanAllocations []any                `json:"selling_plan_allocations"`
}

type shopifyJS struct {
	ID                   int64              `json:"id"`
	Title                string             `json:"title"`
	Handle               string             `json:"handle"`
	Description          string             `json:"description"`
	PublishedAt          string             `json:"published_at"`
	CreatedAt            string             `json:"created_at"`
	Vendor               string             `json:"vendor"`
	Type                 string             `json:"type"`
	Tags                 []string           `json:"tags"`
	Price                int64              `json:"price"`
	PriceMin             int64              `json:"price_min"`
	PriceMax             int64              `json:"price_max"`
	Available            bool               `json:"available"`
	PriceVaries          bool               `json:"price_varies"`
	CompareAtPrice       *int64             `json:"compare_at_price"`
	CompareAtPriceMin    int64              `json:"compare_at_price_min"`
	CompareAtPriceMax    int64              `json:"compare_at_price_max"`
	CompareAtPriceVaries bool               `json:"compare_at_price_varies"`
	Variants             []shopifyJSVariant `json:"variants"`
	Images               []string           `json:"images"`
	FeaturedImage        *string            `json:"featured_image"`
	Options              []shopifyOption    `json:"options"`
	URL                  string             `json:"url"`
	RequiresSellingPlan  bool               `json:"requires_selling_plan"`
	SellingPlanGroups    []any              `json:"selling_plan_groups"`
}

func protocolRelative(src string) string {
	if rest, ok := strings.CutPrefix(src, "https:"); ok {
		return rest
	}
	return src
}

func (s *Store) shopifyProductJS(w http.ResponseWriter, r *http.Request) {
	p, ok := s.productFromPath(w, r, "/products/", ".js")
	if !ok {
		return
	}
	lo, hi := p.PriceRange()
	out := shopifyJS{ID: p.ID, Title: p.Title, Handle: p.Handle, Description: p.BodyHTML,
		PublishedAt: ts(p.PublishedAt), CreatedAt: ts(p.CreatedAt), Vendor: p.Vendor, Type: p.ProductType,
		Tags: nonNil(p.Tags), Price: int64(lo), PriceMin: int64(lo), PriceMax: int64(hi), Available: p.Available(),
		PriceVaries: lo != hi, Variants: []shopifyJSVariant{}, Images: []string{}, Options: []shopifyOption{},
		URL: "/products/" + p.Handle, SellingPlanGroups: []any{}}
	var caMin, caMax Money
	first := true
	for _, v := range p.Variants {
		if v.CompareAtPrice == 0 {
			continue
		}
		if first || v.CompareAtPrice < caMin {
			caMin = v.CompareAtPrice
		}
		caMax = max(caMax, v.CompareAtPrice)
		first = false
	}
	out.CompareAtPriceMin, out.CompareAtPriceMax, out.CompareAtPriceVaries = int64(caMin), int64(caMax), caMin != caMax
	if len(p.Variants) > 0 && p.Variants[0].CompareAtPrice != 0 {
		ca := int64(p.Variants[0].CompareAtPrice)
		out.CompareAtPrice = &ca
	}
	lp := listingProduct(p)
	for k, v := range p.Variants {
		jv := shopifyJSVariant{ID: v.ID, Title: v.Title, Option1: optionValue(v, 0), Option2: optionValue(v, 1),
			Option3: optionValue(v, 2), SKU: v.SKU, RequiresShipping: true, Taxable: true,
			FeaturedImage: lp.Variants[k].FeaturedImage, Available: v.Available, Name: p.Title,
			Options: nonNil(v.OptionValues), Price: int64(v.Price), Weight: v.Grams,
			InventoryManagement: "shopify", SellingPlanAllocations: []any{}}
		if v.Title != "Default Title" {
			jv.Name = p.Title + " - " + v.Title
			t := v.Title
			jv.PublicTitle = &t
		}
		if v.CompareAtPrice != 0 {
			ca := int64(v.CompareAtPrice)
			jv.CompareAtPrice = &ca
		}
		out.Variants = append(out.Variants, jv)
	}
	for _, im := range p.Images {
		out.Images = append(out.Images, protocolRelative(im.Src))
	}
	if len(out.Images) > 0 {
		out.FeaturedImage = &out.Images[0]
	}
	out.Options = lp.Options
	w.Header().Set("Content-Type", "application/javascript; charset=utf-8")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out)
}
