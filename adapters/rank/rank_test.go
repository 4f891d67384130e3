package rank_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/rank"
)

// gather reads a small page's candidates natively.
func gather(t *testing.T, pageURL, html string) *rank.Page {
	t.Helper()
	g, err := rank.GatherPage(context.Background(), pageURL, []byte(html))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// find returns field f's candidate of value v read from where (a prefix of its Where).
func find(g *rank.Page, f rank.Field, v, where string) *rank.Candidate {
	for i := range g.Candidates[f] {
		c := &g.Candidates[f][i]
		if c.Value == v && strings.HasPrefix(c.Where, where) {
			return c
		}
	}
	return nil
}

// TestRulesRuleOutWhatCannotBeTheValue checks each hard rule on a page of its own.
func TestRulesRuleOutWhatCannotBeTheValue(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		field      rank.Field
		value      string
		rule       string
	}{
		{"struck price", `<h1>Lamp</h1><del class="price">$39.90</del><span class="price">$29.90</span>`,
			rank.Price, "39.9", "a former or reference price"},
		{"standard price beside the sale price", `<h1>Lamp</h1><div class="product-price"><span class="price-standard">$39.90</span>
<span class="price-sales">$29.90</span></div>`, rank.Price, "39.9", "a former or reference price"},
		{"was price by class", `<h1>Lamp</h1><span class="price price--old">35,00 €</span><span class="price">29,90 €</span>`,
			rank.Price, "35", "a former or reference price"},
		{"screen-reader former price", `<h1>Lamp</h1><p class="price"><span class="screen-reader-text">Original price was: 250,00 €.</span></p>`,
			rank.Price, "250", "a former or reference price"},
		{"list price specification", `<script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"@type":"Offer","price":"29.90",
			"priceSpecification":[{"@type":"UnitPriceSpecification","priceType":"https://schema.org/ListPrice","price":"39.90"}]}}</script>`,
			rank.Price, "39.9", "a former or reference price"},
		{"strikethrough price specification", `<script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"@type":"Offer","price":29.90,
			"priceSpecification":{"@type":"UnitPriceSpecification","priceType":"StrikethroughPrice","price":39.90}}}</script>`,
			rank.Price, "39.9", "a former or reference price"},
		{"high end of a range", `<script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"@type":"AggregateOffer","lowPrice":"10","highPrice":"90"}}</script>`,
			rank.Price, "90", "the high end of a range"},
		{"zero price", `<meta property="product:price:amount" content="0"><h1>Lamp</h1>`, rank.Price, "0", "not above zero"},
		{"template key", `<h1>{{ product.title }}</h1>`, rank.Title, "{{ product.title }}", "an unrendered template key"},
		{"store name", `<title>Lamp | Lumen Shop</title><h1>Lumen Shop</h1>`, rank.Title, "Lumen Shop", "the store's name"},
		{"banner", `<h1>Shop by Department</h1>`, rank.Title, "Shop by Department", "a menu or banner"},
		{"price as title", `<h1>$24.99</h1>`, rank.Title, "$24.99", "a price"},
		{"item number as title", `<h1>AB-12345</h1>`, rank.Title, "AB-12345", "an item number"},
		{"code with spaces", `<meta property="product:retailer_item_id" content="AB 12">`, rank.SKU, "AB 12", "more than one word"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gather(t, "https://www.lumenshop.example/p/lamp", tc.html)
			c := find(g, tc.field, tc.value, "")
			if c == nil {
				t.Fatalf("no %s candidate %q among %+v", tc.field, tc.value, g.Candidates[tc.field])
			}
			if c.Excluded != tc.rule {
				t.Errorf("%s %q ruled out by %q, want %q", tc.field, tc.value, c.Excluded, tc.rule)
			}
		})
	}
}

// TestAFormerPriceNeedsACurrentOneBesideIt checks that a price only its class calls old
// competes when the product shows no current price beside it, and stays ruled out when
// it does or when it is drawn struck out.
func TestAFormerPriceNeedsACurrentOneBesideIt(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		rule       string
	}{
		{"an old-price class on the only price", `<div class="product"><h1>Reading lenses</h1><ul class="price-list">
<li class="price"><span class="price-old-live">40.00€</span></li><li class="price-tax">Excl. VAT: <span class="price-tax-live">32.79€</span></li></ul></div>`, ""},
		{"an old-price class beside the current price", `<div class="product"><h1>Reading lenses</h1><ul class="price-list">
<li class="price"><span class="price-old-live">40.00€</span> <span class="price-new-live">35.00€</span></li></ul></div>`, "a former or reference price"},
		{"a struck-out price alone", `<div class="product"><h1>Reading lenses</h1><p class="price"><del class="price-old">40.00€</del></p></div>`,
			"a former or reference price"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gather(t, "https://www.optics.example/reading-lenses", tc.html)
			c := find(g, rank.Price, "40", "")
			if c == nil {
				t.Fatalf("no candidate 40 among %+v", g.Candidates[rank.Price])
			}
			if c.Excluded != tc.rule {
				t.Errorf("40 ruled out by %q, want %q", c.Excluded, tc.rule)
			}
		})
	}
}

// TestFeaturesDescribeWhereACandidateSits checks the features that say where on the
// page a candidate is.
func TestFeaturesDescribeWhereACandidateSits(t *testing.T) {
	page := `<html><head><title>Trail lamp 400 | Lumen</title>
<meta property="og:title" content="Trail lamp 400">
<script type="application/ld+json">{"@type":"Product","name":"Trail lamp 400","sku":"TL-400","offers":{"price":"29.90","priceCurrency":"EUR"}}</script>
</head><body>
<header><div class="mini-cart"><span class="price">0,00 €</span></div></header>
<main><div class="product"><h1>Trail lamp 400</h1>
 <div class="price-box"><span class="price price--sale">29,90 €</span></div>
 <p class="stock">In stock</p>
 <button class="add-to-cart">Add to cart</button>
</div>
<section class="related-products"><div class="tile"><span class="price">9,90 €</span><button class="add-to-cart">Add to cart</button></div></section>
</main></body></html>`
	g := gather(t, "https://www.lumen.example/p/trail-lamp-400", page)
	for _, tc := range []struct {
		name    string
		c       *rank.Candidate
		feature rank.Feature
		want    bool
	}{
		{"the shown price is near the heading", find(g, rank.Price, "29.9", "span"), rank.HeadingNear, true},
		{"the shown price is the first near the heading", find(g, rank.Price, "29.9", "span"), rank.FirstNear, true},
		{"the shown price agrees with the markup", find(g, rank.Price, "29.9", "span"), rank.AgreeStructured, true},
		{"the shown price has a currency", find(g, rank.Price, "29.9", "span"), rank.HasCurrency, true},
		{"the related product's price is in another product's block", find(g, rank.Price, "9.9", "span"), rank.InOther, true},
		{"the cart's price is in the cart", find(g, rank.Price, "0", "span"), rank.InCart, true},
		{"the JSON-LD price is the first entity's", find(g, rank.Price, "29.9", "jsonld"), rank.FirstEntity, true},
		{"the heading's title is in the <title>", find(g, rank.Title, "Trail lamp 400", "h1"), rank.OverlapTitle, true},
		{"the heading's title agrees with the JSON-LD name", find(g, rank.Title, "Trail lamp 400", "h1"), rank.AgreeStructured, true},
		{"the stock line is near the heading", find(g, rank.Availability, rank.InStock, "stock line"), rank.HeadingNear, true},
		{"the SKU in the URL", find(g, rank.SKU, "TL-400", "jsonld"), rank.InURL, false},
	} {
		if tc.c == nil {
			t.Errorf("%s: no such candidate", tc.name)
			continue
		}
		if got := tc.c.Features[tc.feature] > 0; got != tc.want {
			t.Errorf("%s: %s = %v (features %v)", tc.name, tc.feature, tc.c.Features[tc.feature], tc.c.Features)
		}
	}
	if g.Heading != "Trail lamp 400" || !g.SchemaProduct || g.BuyEnabled != 2 {
		t.Errorf("page facts: heading %q, schema product %v, buy buttons %d", g.Heading, g.SchemaProduct, g.BuyEnabled)
	}
}

// TestTheRankerAvoidsTraps runs the shipped weights on pages whose wrong answers are
// tempting: a struck former price, related products' prices and buttons, a cart.
func TestTheRankerAvoidsTraps(t *testing.T) {
	for _, tc := range []struct {
		name, html  string
		field       rank.Field
		want        string
		wantCompare float64
	}{
		{"sale price over the struck one", `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1>
<div class="price-box"><del class="price">39,90 €</del> <span class="price">29,90 €</span></div><button class="add-to-cart">Add to cart</button></div>`,
			rank.Price, "29.9", 39.9},
		{"sale price over one struck with <s>", `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1>
<div class="price-box"><s class="price">49,00 €</s> <span class="price">39,00 €</span></div><button class="add-to-cart">Add to cart</button></div>`,
			rank.Price, "39", 49},
		{"sale price over one struck by its style", `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1>
<div class="price-box"><span class="price" style="text-decoration: line-through">49,00 €</span> <span class="price">39,00 €</span></div>
<button class="add-to-cart">Add to cart</button></div>`, rank.Price, "39", 49},
		{"sale price over an old-price box", `<title>Lamp | Lumen</title><div class="product-info-main"><h1 class="page-title">Lamp</h1>
<div class="price-box"><span class="special-price"><span class="price">£199.00</span></span>
<span class="old-price"><span class="price">£250.00</span></span></div><button class="tocart">Add to Cart</button></div>`, rank.Price, "199", 250},
		{"WooCommerce sale, screen-reader texts and all, on a WordPress page", `<body class="product-template-default single-product woocommerce">
<title>Lamp | Lumen</title><div class="product"><h1 class="product_title">Lamp</h1><p class="price"><del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi>250,00&nbsp;€</bdi></span></del>
<span class="screen-reader-text">Original price was: 250,00&nbsp;€.</span><ins aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi>199,00&nbsp;€</bdi></span></ins>
<span class="screen-reader-text">Current price is: 199,00&nbsp;€.</span></p><button class="single_add_to_cart_button button">Add to cart</button></div></body>`,
			rank.Price, "199", 250},
		{"own price over related products'", `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1><span class="price">$49.00</span>
<button class="add-to-cart">Add to cart</button></div><div class="related"><h2>You may also like</h2>
<div class="tile"><span class="price">$12.00</span></div><div class="tile"><span class="price">$12.00</span></div><div class="tile"><span class="price">$15.00</span></div></div>`,
			rank.Price, "49", 0},
		{"sold out beside related products' buttons", `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1><span class="price">$49.00</span>
<p class="stock-status">Sold out</p></div><div class="related-products"><div class="tile"><button class="add-to-cart">Add to cart</button></div>
<div class="tile"><button class="add-to-cart">Add to cart</button></div></div>`,
			rank.Availability, rank.OutOfStock, 0},
		{"a price only the meta tags state", `<meta property="og:type" content="product"><meta property="product:price:amount" content="1.299,00">
<meta property="product:price:currency" content="eur"><h1>Board</h1>`, rank.Price, "1299", 0},
		{"the structured product's currency", `<script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"price":"49.00","priceCurrency":"CAD"}}</script>
<h1>Lamp</h1><span class="price">$49.00</span>`, rank.Currency, "CAD", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := rank.Default().Rank(gather(t, "https://www.lumen.example/p/lamp", tc.html))
			got, ok := d.Best(tc.field)
			if !ok || got.Value != tc.want {
				var b strings.Builder
				d.Explain(&b)
				t.Fatalf("%s = %v, want %q\n%s", tc.field, got, tc.want, b.String())
			}
			if tc.wantCompare != 0 {
				if was, ok := d.CompareAt(); !ok || was != tc.wantCompare {
					t.Errorf("compare-at %v (%v), want %v", was, ok, tc.wantCompare)
				}
			}
		})
	}
}

// TestTheMainHeadingIsTheProducts checks that the heading prices are measured from is
// the product's, not a menu's h1 before it, and that a page showing its own former and
// current price beside each other (and in a second layout for small screens) is a
// product's, not a listing's.
func TestTheMainHeadingIsTheProducts(t *testing.T) {
	page := `<title>Clinic</title><nav><ul><li><h1 class="category-nav-title">Services</h1></li></ul></nav>
<div class="content"><h1 class="main-title">Insoles made to measure</h1>
<div class="badge"><div class="item-price"><span class="price-new">270,00 Kn</span> <span class="price-old">540,00 Kn</span></div></div>
<div class="small-screen"><div class="item-price"><span class="price-old">540,00 Kn</span> <span class="price-new">270,00 Kn</span></div></div>
</div>`
	g := gather(t, "https://www.clinic.example/insoles-made-to-measure-380", page)
	if g.Heading != "Insoles made to measure" {
		t.Errorf("heading %q, want the product's", g.Heading)
	}
	if g.HeadingPriceLevel < 0 || g.HeadingPriceLevel > 3 || g.PricesNearHeading > 2 {
		t.Errorf("prices near the heading: %d at level %d, want the product's two close by", g.PricesNearHeading, g.HeadingPriceLevel)
	}
	if c := find(g, rank.Price, "270", "span"); c == nil || c.Features[rank.FirstNear] == 0 {
		t.Errorf("the current price %+v is not the first near the heading", c)
	}
}

// TestASecondLevelHeadingServesWithoutAMainOne checks that a page whose only h1 is its
// logo or a menu's takes the h2 that repeats the <title>'s product name as its heading.
func TestASecondLevelHeadingServesWithoutAMainOne(t *testing.T) {
	page := `<title>Oak cue rack (new in box) - furniture - by owner</title><header><h1 class="logo">Classifieds</h1></header>
<section><h2 class="posting-title">Oak cue rack (new in box) - <span class="price">$225</span></h2><h2>Similar posts</h2></section>`
	g := gather(t, "https://city.classifieds.example/fuo/d/oak-cue-rack/6228494422.html", page)
	if !strings.HasPrefix(g.Heading, "Oak cue rack") {
		t.Errorf("heading %q, want the h2 that names the product", g.Heading)
	}
	if g.HeadingPriceLevel != 0 || g.PricesNearHeading != 1 {
		t.Errorf("prices near the heading: %d at level %d, want the one inside it", g.PricesNearHeading, g.HeadingPriceLevel)
	}
}

// TestAShortenedTitleTagYieldsToTheHeading checks that a <title> which is the heading
// cut short, where the URL's slug holds the rest, is ruled out, and one that merely
// differs is not.
func TestAShortenedTitleTagYieldsToTheHeading(t *testing.T) {
	page := `<title>Trail lamp | Lumen</title><div class="product"><h1>Trail lamp 400</h1><span class="price">29,90 €</span></div>`
	g := gather(t, "https://www.lumen.example/p/trail-lamp-400", page)
	if c := find(g, rank.Title, "Trail lamp", "title"); c == nil || c.Excluded != "the main heading cut short" {
		t.Errorf("the shortened <title> is %+v, want it ruled out", c)
	}
	if d, _ := rank.Default().Rank(g).Best(rank.Title); d == nil || d.Value != "Trail lamp 400" {
		t.Errorf("title %+v, want the heading's", d)
	}
	g = gather(t, "https://www.lumen.example/p/trail-lamp", page)
	if c := find(g, rank.Title, "Trail lamp", "title"); c == nil || c.Excluded != "" {
		t.Errorf("with a slug that lacks the heading's extra words, the <title> is %+v, want it competing", c)
	}
}
