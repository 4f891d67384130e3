package demostore

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

// The Magento kind: a British Magento 2 shop on the Luma theme. Categories and products
// live at /{handle}.html; category pages list li.product-item tiles whose price boxes
// carry data-price-amount, page as ?p=N and answer a page past the last with the last,
// as Magento does; a configurable product's page initialises its swatches with the
// jsonConfig of its children. Prices are written "£1,234.56".

// magentoStatic is where the theme's static files are versioned.
const magentoStatic = "/static/version1712345678/frontend/Magento/luma/en_GB"

func (s *Store) magentoRoute(path string) (Route, http.HandlerFunc) {
	switch path {
	case "/":
		return RouteHome, s.magentoHome
	case "/robots.txt":
		return RouteRobots, s.magentoRobots
	}
	switch name, isPage := strings.CutSuffix(strings.TrimPrefix(path, "/"), ".html"); {
	case isPage && !strings.Contains(name, "/"):
		if _, ok := s.cat.Collection(name); ok && name != "all" {
			return RouteCategoryPage, func(w http.ResponseWriter, r *http.Request) { s.magentoCategory(w, r, name) }
		}
		return RouteProductPage, s.magentoProduct
	case strings.HasPrefix(path, "/media/catalog/product/"):
		return RouteMedia, s.uploadedImage
	}
	for _, p := range magentoPages {
		if path == p.path {
			return RoutePage, s.magentoContentPage
		}
	}
	return RouteOther, nil
}

// magentoPages are the shop's other pages: its header's and footer's links.
var magentoPages = []struct{ path, title, text string }{
	{"/customer/account/login/", "Customer Login", "If you have an account, sign in with your email address."},
	{"/customer/account/create/", "Create New Customer Account", "Personal Information"},
	{"/checkout/cart/", "Shopping Basket", "You have no items in your shopping basket."},
	{"/contact/", "Contact Us", "Jot us a note and we’ll get back to you as quickly as possible."},
	{"/about-us", "About us", "A small shop in Edinburgh."},
	{"/customer-service", "Customer Service", "Delivery within three working days."},
	{"/privacy-policy-cookie-restriction-mode", "Privacy and Cookie Policy", "We keep only what an order needs."},
	{"/sales/guest/form/", "Orders and Returns", "Order Information"},
	{"/search/term/popular/", "Popular Search Terms", "There are no search terms available."},
}

// mageID is the entity id of product i; mageChildID that of its k-th child.
func mageID(i int) int { return i + 1 }

func mageChildID(i, k int) int { return 100_000 + i*100 + k }

// mageAttributeID is the id of the attribute a catalogue option is stored as, as Luma's
// sample data numbers color and size.
func mageAttributeID(option string, k int) int {
	switch option {
	case "Color":
		return 93
	case "Size":
		return 144
	}
	return 200 + k
}

// mageItem is a catalogue product as Magento holds it: a simple product, or a
// configurable one whose children are its variants.
type mageItem struct {
	Product
	id           int
	configurable bool
	// final is the price the shop shows: a simple product's price, the lowest price of a
	// configurable product's salable children ("As low as"). old is a simple product's
	// regular price when it is on sale, else 0.
	final, old Money
}

func (s *Store) mageItem(p Product) mageItem {
	it := mageItem{Product: p, id: mageID(p.Index), configurable: !isSimple(p)}
	if !it.configurable {
		v := p.Variants[0]
		it.final = v.Price
		if v.CompareAtPrice > v.Price {
			it.old = v.CompareAtPrice
		}
		return it
	}
	// Magento's price index takes the lowest price of the children in stock, and of all
	// of them when none is.
	first := true
	for _, v := range p.Variants {
		if (v.Available || !p.Available()) && (first || v.Price < it.final) {
			it.final, first = v.Price, false
		}
	}
	return it
}

// mageAmount is Luma's price-wrapper: the amount in data-price-amount, the text as the
// locale writes it.
func (s *Store) mageAmount(id string, m Money, kind string) string {
	return `<span  id="` + id + `"                data-price-amount="` + fmt.Sprint(mageNumber(m)) +
		`"
        data-price-type="` + kind + `"
        class="price-wrapper "
    ><span class="price">` + britishPrices.text(m, s.currency) + `</span></span>`
}

// priceBox is Luma's price box: "As low as" for a configurable product, a special price
// with the old one struck on a sale, else the price. On a product page the final price
// carries microdata.
func (s *Store) priceBox(it mageItem, productPage bool) template.HTML {
	id := strconv.Itoa(it.id)
	schema, meta := "", ""
	if productPage {
		schema = `
         itemprop="offers" itemscope itemtype="http://schema.org/Offer"`
		meta = `
                <meta itemprop="price" content="` + it.final.String() + `" />
        <meta itemprop="priceCurrency" content="` + s.currency + `" />`
	}
	var b strings.Builder
	b.WriteString(`<div class="price-box price-final_price" data-role="priceBox" data-product-id="` + id + `" data-price-box="product-id-` + id + `">`)
	switch {
	case it.old > 0:
		b.WriteString(`
<span class="special-price">
<span class="price-container price-final_price&#x20;tax&#x20;weee"` + schema + `>
            <span class="price-label">Special Price</span>
        ` + s.mageAmount("product-price-"+id, it.final, "finalPrice") + meta + `
    </span>
</span>
<span class="old-price">
<span class="price-container price-final_price&#x20;tax&#x20;weee">
            <span class="price-label">Regular Price</span>
        ` + s.mageAmount("old-price-"+id, it.old, "oldPrice") + `
        </span>
</span>
`)
	default:
		label := ""
		if it.configurable {
			label = `
            <span class="price-label">As low as</span>`
		}
		b.WriteString(`
    <span class="normal-price">
<span class="price-container price-final_price&#x20;tax&#x20;weee"` + schema + `>` + label + `
        ` + s.mageAmount("product-price-"+id, it.final, "finalPrice") + meta + `
    </span>
</span>
`)
	}
	b.WriteString("</div>")
	return template.HTML(b.String())
}

// mageImage is the catalogue's URL of a product image at a cached size.
func mageImage(r *http.Request, p Product, im Image, cache string) string {
	h := p.Handle
	return fmt.Sprintf("%s/media/catalog/product/cache/%s/%c/%c/%s-%d.jpg", base(r), cache, h[0], h[min(1, len(h)-1)], h, im.Position)
}

// mageTileView is a li.product-item of a category page.
type mageTileView struct {
	ID                      int
	URL, Title, Image, SKU  string
	Price                   template.HTML
	Available, Configurable bool
}

func (s *Store) mageTile(r *http.Request, i int) mageTileView {
	p := s.cat.Product(i)
	it := s.mageItem(p)
	t := mageTileView{ID: it.id, URL: base(r) + s.productPath(p.Handle), Title: p.Title, SKU: p.LeadVariant().SKU,
		Price: s.priceBox(it, false), Available: p.Available(), Configurable: it.configurable}
	if len(p.Images) > 0 {
		t.Image = mageImage(r, p, p.Images[0], "9e1d5f7d6a0c4b1e8f2a3c4d5e6f7a8b")
	}
	return t
}

// mageView is what the Magento templates see.
type mageView struct {
	Store, Base, Static, Title, Canonical, BodyClass string
	Currency                                         string
	Menu, Breadcrumbs                                []link
	Heading, Intro                                   string
	Tiles                                            []mageTileView
	Amount                                           template.HTML
	Pager                                            []wooPageLink
	Prev, Next                                       string
	Product                                          *mageProductView
	Scripts                                          []template.HTML
}

func (s *Store) mageView(r *http.Request, title string) mageView {
	v := mageView{Store: s.name, Base: base(r), Static: base(r) + magentoStatic, Title: title, Currency: s.currency}
	for _, c := range s.cat.Collections() {
		v.Menu = append(v.Menu, link{base(r) + s.CategoryPath(c.Handle), c.Title})
	}
	return v
}

func (s *Store) magentoHome(w http.ResponseWriter, r *http.Request) {
	v := s.mageView(r, "Home Page")
	v.Canonical, v.BodyClass = base(r)+"/", "cms-home cms-index-index page-layout-1column"
	for i := 0; i < s.cat.Len() && i < 6; i++ {
		v.Tiles = append(v.Tiles, s.mageTile(r, i))
	}
	s.render(w, "mage-home", v)
}

// magentoCategory serves a category page, ?p=N: Magento answers a page past the last with
// the last page.
func (s *Store) magentoCategory(w http.ResponseWriter, r *http.Request, handle string) {
	col, ok := s.cat.Collection(handle)
	if !ok {
		s.notFound(w, r)
		return
	}
	total, at := s.cat.members(col)
	pages := s.CategoryPages(handle)
	n, err := strconv.Atoi(r.URL.Query().Get("p"))
	if err != nil || n < 1 {
		n = 1
	}
	n = min(n, pages)
	u := base(r) + s.CategoryPath(handle)
	v := s.mageView(r, col.Title)
	v.Canonical = u
	v.BodyClass = "page-products categorypath-" + handle + " category-" + handle + " catalog-category-view page-layout-2columns-left"
	v.Heading, v.Intro = col.Title, col.Description
	v.Breadcrumbs = []link{{base(r) + "/", "Home"}, {"", col.Title}}
	first, last := (n-1)*s.pageSize, min(n*s.pageSize, total)
	for k := first; k < last; k++ {
		v.Tiles = append(v.Tiles, s.mageTile(r, at(k)))
	}
	switch {
	case pages == 1:
		noun := "Items"
		if total == 1 {
			noun = "Item"
		}
		v.Amount = template.HTML(fmt.Sprintf(`<span class="toolbar-number">%d</span> %s`, total, noun))
	default:
		v.Amount = template.HTML(fmt.Sprintf(`Items <span class="toolbar-number">%d</span>-<span class="toolbar-number">%d</span> of <span class="toolbar-number">%d</span>`,
			first+1, last, total))
	}
	if pages > 1 {
		page := func(k int) string { return u + "?p=" + strconv.Itoa(k) }
		// Luma shows five page numbers around the current one.
		lo := max(1, min(n-2, pages-4))
		for k := lo; k <= min(pages, lo+4); k++ {
			v.Pager = append(v.Pager, wooPageLink{URL: page(k), Number: k, Current: k == n})
		}
		if n > 1 {
			v.Prev = page(n - 1)
		}
		if n < pages {
			v.Next = page(n + 1)
		}
	}
	s.render(w, "mage-category", v)
}

// mageProductView is a product page.
type mageProductView struct {
	ID                   int
	Title, SKU, Handle   string
	Body                 template.HTML
	Price                template.HTML
	Amount               string
	Available            bool
	Configurable, Config bool
	Image                string
	Related              []mageTileView
}

func (s *Store) magentoProduct(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".html")
	p, ok := s.plainProduct(w, r, handle)
	if !ok {
		return
	}
	it := s.mageItem(p)
	v := s.mageView(r, p.Title)
	v.Canonical = base(r) + s.productPath(p.Handle)
	v.BodyClass = "catalog-product-view product-" + p.Handle + " page-layout-1column"
	pv := &mageProductView{ID: it.id, Title: p.Title, SKU: p.LeadVariant().SKU, Handle: p.Handle, Body: template.HTML(p.BodyHTML),
		Price: s.priceBox(it, true), Amount: it.final.String(), Available: p.Available(), Configurable: it.configurable}
	if it.configurable {
		pv.SKU = strings.ToUpper(p.Handle)
	}
	if len(p.Images) > 0 {
		pv.Image = mageImage(r, p, p.Images[0], "3f1b2c4d5e6f7a8b9c0d1e2f3a4b5c6d")
	}
	for _, i := range s.relatedIndexes(p) {
		pv.Related = append(pv.Related, s.mageTile(r, i))
	}
	v.Scripts = append(v.Scripts, s.mageGallery(r, p))
	if it.configurable && p.Available() {
		// Luma renders the options, and their configuration, only for a product that can
		// be bought.
		pv.Config = true
		v.Scripts = append(v.Scripts, s.mageSwatches(p))
	}
	v.Product = pv
	s.render(w, "mage-product", v)
}

// mageGallery is the gallery's initialisation: every image at three sizes.
func (s *Store) mageGallery(r *http.Request, p Product) template.HTML {
	var data []map[string]any
	for k, im := range p.Images {
		data = append(data, map[string]any{"thumb": mageImage(r, p, im, "2e1b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"),
			"img": mageImage(r, p, im, "b9a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5"), "full": mageImage(r, p, im, "3f1b2c4d5e6f7a8b9c0d1e2f3a4b5c6d"),
			"caption": im.Alt, "position": strconv.Itoa(im.Position), "isMain": k == 0, "type": "image", "videoUrl": nil})
	}
	return mageInit(map[string]any{"[data-gallery-role=gallery-placeholder]": map[string]any{"mage/gallery/gallery": map[string]any{
		"mixins": []string{"magnifier/magnify"}, "data": data,
		"options": map[string]any{"nav": "thumbs", "loop": true, "keyboard": true, "arrows": true, "allowfullscreen": true,
			"showCaption": false, "width": 700, "thumbwidth": 90, "height": 700, "thumbheight": 90},
	}}})
}

// mageSwatches is the swatch renderer's initialisation with the product's jsonConfig: its
// attributes (each option naming the children in stock that have it), every child's
// option per attribute (index), prices and SKU. The shop shows products out of stock, so
// children out of stock are in the index and in no option's list.
func (s *Store) mageSwatches(p Product) template.HTML {
	type option struct {
		ID       string   `json:"id"`
		Label    string   `json:"label"`
		Products []string `json:"products"`
	}
	type attribute struct {
		ID       string   `json:"id"`
		Code     string   `json:"code"`
		Label    string   `json:"label"`
		Options  []option `json:"options"`
		Position string   `json:"position"`
	}
	attrs := map[string]*attribute{}
	var order []string
	for k, o := range p.Options {
		id := strconv.Itoa(mageAttributeID(o.Name, k))
		a := &attribute{ID: id, Code: strings.ToLower(o.Name), Label: o.Name, Position: strconv.Itoa(k)}
		for j, val := range o.Values {
			a.Options = append(a.Options, option{ID: strconv.Itoa(mageAttributeID(o.Name, k)*100 + j), Label: val, Products: []string{}})
		}
		attrs[id] = a
		order = append(order, id)
	}
	index := map[string]map[string]string{}
	prices := map[string]any{}
	skus := map[string]string{}
	for k, v := range p.Variants {
		child := strconv.Itoa(mageChildID(p.Index, k))
		index[child] = map[string]string{}
		for oi, id := range order {
			a := attrs[id]
			for j, val := range p.Options[oi].Values {
				if oi < len(v.OptionValues) && v.OptionValues[oi] == val {
					index[child][id] = a.Options[j].ID
					if v.Available {
						a.Options[j].Products = append(a.Options[j].Products, child)
					}
				}
			}
		}
		amount := func(m Money) map[string]any { return map[string]any{"amount": mageNumber(m)} }
		prices[child] = map[string]any{"baseOldPrice": amount(max(v.CompareAtPrice, v.Price)), "oldPrice": amount(max(v.CompareAtPrice, v.Price)),
			"basePrice": amount(v.Price), "finalPrice": amount(v.Price), "tierPrices": []any{}, "msrpPrice": map[string]any{"amount": nil}}
		skus[child] = v.SKU
	}
	it := s.mageItem(p)
	symbol := currencySymbol(s.currency)
	config := map[string]any{
		"attributes": attrs, "template": symbol + "<%- data.price %>", "currencyFormat": symbol + "%s", "optionPrices": prices,
		"priceFormat": map[string]any{"pattern": symbol + "%s", "precision": 2, "requiredPrecision": 2, "decimalSymbol": ".",
			"groupSymbol": ",", "groupLength": 3, "integerRequired": false},
		"prices": map[string]any{"baseOldPrice": map[string]any{"amount": mageNumber(it.final)}, "oldPrice": map[string]any{"amount": mageNumber(it.final)},
			"basePrice": map[string]any{"amount": mageNumber(it.final)}, "finalPrice": map[string]any{"amount": mageNumber(it.final)}},
		"productId": strconv.Itoa(mageID(p.Index)), "chooseText": "Choose an Option...", "images": map[string]any{},
		"index": index, "salable": []any{}, "canDisplayShowOutOfStockStatus": true, "channel": "website",
		"salesChannelCode": "base", "sku": skus,
	}
	return mageInit(map[string]any{
		"[data-role=swatch-options]": map[string]any{"Magento_Swatches/js/swatch-renderer": map[string]any{
			"jsonConfig": config, "mediaCallback": "/swatches/ajax/media/", "gallerySwitchStrategy": "replace", "showTooltip": 1}},
		"*": map[string]any{"Magento_Swatches/js/catalog-add-to-cart": map[string]any{}},
	})
}

// mageNumber is an amount as Magento's JSON writes it: a number.
func mageNumber(m Money) any {
	if m%100 == 0 {
		return int64(m / 100)
	}
	f, _ := strconv.ParseFloat(m.String(), 64)
	return f
}

// mageInit is a text/x-magento-init script with the components config names.
func mageInit(config map[string]any) template.HTML {
	return template.HTML(`<script type="text/x-magento-init">` + "\n    " + string(jsonScript(config)) + "\n</script>")
}

func (s *Store) magentoContentPage(w http.ResponseWriter, r *http.Request) {
	for _, p := range magentoPages {
		if r.URL.Path == p.path {
			v := s.mageView(r, p.title)
			v.Canonical, v.Heading, v.Intro = base(r)+p.path, p.title, p.text
			v.BodyClass = "cms-page-view page-layout-1column"
			s.render(w, "mage-page", v)
			return
		}
	}
	s.notFound(w, r)
}

// magentoRobots keeps crawlers out of the account, basket and search pages and the
// sorted copies of category pages, as Magento shops' robots.txt commonly do, with the
// store's extra rules.
func (s *Store) magentoRobots(w http.ResponseWriter, r *http.Request) {
	rules := []string{"/index.php/", "/checkout/", "/customer/", "/catalogsearch/", "/sendfriend/", "/review/", "/*?dir=",
		"/*?limit=", "/*?mode=", "/*?order=", "/*SID="}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, p := range append(rules, s.opts.Faults.RobotsDisallow...) {
		b.WriteString("Disallow: " + p + "\n")
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, b.String())
}
