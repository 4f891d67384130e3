package demostore

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Generate makes a catalogue of n products from seed. The same (seed, n) always gives the
// same catalogue, and product i is the same in every catalogue of the same seed that has
// one. Collections: one per category (every product is in exactly one), plus
// "new-arrivals", "sale" and "best-sellers", which overlap the categories.
func Generate(seed uint64, n int) *Catalog {
	if n < 0 {
		n = 0
	}
	c := &Catalog{seed: seed, n: n}
	for k, cat := range categories {
		c.collections = append(c.collections, Collection{
			ID: collectionID(seed, k), Handle: cat.handle, Title: cat.title, Description: cat.blurb,
		})
	}
	extras := []Collection{
		{Handle: "new-arrivals", Title: "New Arrivals", Description: "Just landed this season."},
		{Handle: "sale", Title: "Sale", Description: "Marked down while stocks last."},
		{Handle: "best-sellers", Title: "Best Sellers", Description: "What everyone is buying."},
	}
	for k := range extras {
		extras[k].ID = collectionID(seed, len(categories)+k)
	}
	c.collections = append(c.collections, extras...)
	first := len(categories)
	for i := range n {
		t := traitsOf(seed, i)
		c.collections[t.category].Products = append(c.collections[t.category].Products, int32(i))
		if t.isNew {
			c.collections[first].Products = append(c.collections[first].Products, int32(i))
		}
		if t.onSale {
			c.collections[first+1].Products = append(c.collections[first+1].Products, int32(i))
		}
		if t.bestSeller {
			c.collections[first+2].Products = append(c.collections[first+2].Products, int32(i))
		}
	}
	c.index()
	return c
}

func collectionID(seed uint64, k int) int64 {
	return 290_000_000_000 + int64(seed%97)*1_000_000 + int64(k)
}

// traits are the facts collections need, derived from a hash so that building the
// collection indexes never generates a product.
type traits struct {
	category                  int
	onSale, isNew, bestSeller bool
	soldOut                   bool
}

func traitsOf(seed uint64, i int) traits {
	h := splitmix(seed*0x9E3779B97F4A7C15 ^ uint64(i))
	return traits{
		category:   int(h % uint64(len(categories))),
		onSale:     (h>>8)%100 < 30,
		isNew:      (h>>16)%100 < 10,
		bestSeller: (h>>24)%100 < 8,
		soldOut:    (h>>32)%100 < 5,
	}
}

func splitmix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}

func productRand(seed uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(i)+0x5DEECE66D))
}

// The epoch generated products are dated from.
var epoch = time.Date(2024, 1, 15, 9, 0, 0, 0, time.UTC)

// generateHandle is the handle of product i without building the rest of it.
func generateHandle(seed uint64, i int) string {
	r := productRand(seed, i)
	t := traitsOf(seed, i)
	title, _, _, _ := pickTitle(r, &categories[t.category])
	return slug(title) + "-" + strconv.Itoa(i+1)
}

// generatedIndex reads the index back from a generated handle ("...-42" is index 41).
func generatedIndex(handle string) (int, bool) {
	k := strings.LastIndexByte(handle, '-')
	if k < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(handle[k+1:])
	if err != nil || n < 1 {
		return 0, false
	}
	return n - 1, true
}

func pickTitle(r *rand.Rand, cat *category) (title, brand, noun, material string) {
	brand = pick(r, cat.brands)
	noun = pick(r, cat.nouns)
	adj := pick(r, cat.adjectives)
	material = pick(r, cat.materials)
	if r.IntN(3) == 0 || strings.Contains(adj, material) {
		return brand + " " + adj + " " + noun, brand, noun, material
	}
	return brand + " " + adj + " " + material + " " + noun, brand, noun, material
}

func generateProduct(seed uint64, i int) Product {
	r := productRand(seed, i)
	t := traitsOf(seed, i)
	cat := &categories[t.category]
	title, brand, noun, material := pickTitle(r, cat)
	handle := slug(title) + "-" + strconv.Itoa(i+1)
	id := 7_000_000_000_000 + int64(seed%97)*10_000_000_000 + int64(i)
	created := epoch.Add(time.Duration(i) * 37 * time.Minute)
	updated := created.Add(time.Duration(1+r.IntN(90*24)) * time.Hour)

	p := Product{
		Index: i, ID: id, Handle: handle, Title: title, Vendor: brand, ProductType: noun,
		CreatedAt: created, UpdatedAt: updated, PublishedAt: created,
		Category: cat.handle,
	}

	// Options: at most three, each value list a contiguous run so sizes stay ordered.
	for _, spec := range cat.options {
		if r.Float64() >= spec.chance {
			continue
		}
		lo := spec.min
		if lo > len(spec.values) {
			lo = len(spec.values)
		}
		count := lo + r.IntN(min(spec.max, len(spec.values))-lo+1)
		start := 0
		if spec.contiguous {
			start = r.IntN(len(spec.values) - count + 1)
			p.Options = append(p.Options, Option{Name: spec.name, Values: append([]string(nil), spec.values[start:start+count]...)})
		} else {
			perm := r.Perm(len(spec.values))[:count]
			vals := make([]string, count)
			for k, j := range perm {
				vals[k] = spec.values[j]
			}
			p.Options = append(p.Options, Option{Name: spec.name, Values: vals})
		}
	}

	// Prices: a base in the category's range ending in .99, .95 or .00; later sizes of
	// priced options cost more.
	base := Money(cat.priceMin*100 + r.IntN((cat.priceMax-cat.priceMin)*100+1))
	base = base/100*100 + Money(pick(r, []int{99, 95, 0, 99, 50}))
	if base < 100 {
		base = 199
	}
	markup := 1.2 + float64(r.IntN(4))*0.1 // compare-at 20-50 % above

	combos := [][]string{{}}
	for _, o := range p.Options {
		var next [][]string
		for _, c := range combos {
			for _, v := range o.Values {
				next = append(next, append(append([]string(nil), c...), v))
			}
		}
		combos = next
	}
	sku := skuPrefix(brand)
	for k, c := range combos {
		price := base
		for oi, v := range c {
			if p.Options[oi].Name == cat.pricedOption {
				price += Money(indexOf(p.Options[oi].Values, v)) * Money(cat.step*100)
			}
		}
		vt := strings.Join(c, " / ")
		if vt == "" {
			vt = "Default Title"
		}
		v := Variant{
			ID:           40_000_000_000_000 + int64(seed%97)*1_000_000_000_000 + int64(i)*100 + int64(k),
			Title:        vt,
			OptionValues: c,
			SKU:          fmt.Sprintf("%s-%06d-%02d", sku, i+1, k+1),
			Price:        price,
			Available:    !t.soldOut && r.IntN(10) != 0,
			Grams:        cat.grams + r.IntN(cat.grams/2+1),
		}
		if t.onSale {
			v.CompareAtPrice = Money(float64(price)*markup)/100*100 + 99
		}
		if len(c) == 0 {
			v.OptionValues = []string{"Default Title"}
		}
		p.Variants = append(p.Variants, v)
	}
	if len(p.Options) == 0 {
		p.Options = []Option{{Name: "Title", Values: []string{"Default Title"}}}
	}

	// Images: one per colour (illustrating that colour's variants), else one to three.
	sizes := [][2]int{{2048, 2048}, {1600, 1200}, {1200, 1600}, {1000, 1000}, {1800, 2400}}
	colorOpt := -1
	for oi, o := range p.Options {
		if o.Name == "Color" {
			colorOpt = oi
		}
	}
	imgBase := int64(30_000_000_000_000) + int64(seed%97)*1_000_000_000_000 + int64(i)*100
	v := created.Unix()
	addImage := func(suffix string, variants []int64) int64 {
		k := len(p.Images)
		wh := pick(r, sizes)
		im := Image{
			ID: imgBase + int64(k), Position: k + 1, Width: wh[0], Height: wh[1],
			Src:        fmt.Sprintf("https://cdn.shopify.com/s/files/1/0%03d/%04d/%04d/files/%s%s.jpg?v=%d", 100+seed%900, 1000+i%9000, 1000+(i/9000)%9000, handle, suffix, v),
			Alt:        title,
			VariantIDs: variants,
		}
		p.Images = append(p.Images, im)
		return im.ID
	}
	if colorOpt >= 0 {
		for _, color := range p.Options[colorOpt].Values {
			var ids []int64
			for _, vr := range p.Variants {
				if vr.OptionValues[colorOpt] == color {
					ids = append(ids, vr.ID)
				}
			}
			imID := addImage("-"+slug(color), ids)
			for k := range p.Variants {
				if p.Variants[k].OptionValues[colorOpt] == color {
					p.Variants[k].ImageID = imID
				}
			}
		}
	} else {
		for k := range 1 + r.IntN(3) {
			suffix := ""
			if k > 0 {
				suffix = "-" + strconv.Itoa(k+1)
			}
			addImage(suffix, []int64{})
		}
	}
	// Description and tags.
	feats := r.Perm(len(cat.features))[:3+r.IntN(2)]
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%s</p>\n", strings.ReplaceAll(pick(r, cat.pitches), "{noun}", strings.ToLower(noun)))
	fmt.Fprintf(&b, "<p>Made by %s in %s.</p>\n<ul>\n", brand, strings.ToLower(material))
	tags := []string{cat.title, material}
	for _, f := range feats {
		fmt.Fprintf(&b, "<li>%s</li>\n", cat.features[f].text)
		tags = append(tags, cat.features[f].tag)
	}
	b.WriteString("</ul>\n")
	if t.onSale {
		tags = append(tags, "sale")
	}
	if t.isNew {
		tags = append(tags, "new")
	}
	p.BodyHTML = b.String()
	p.Tags = dedupe(tags)
	return p
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

func dedupe(xs []string) []string {
	out := xs[:0]
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func skuPrefix(brand string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(brand) {
		if r >= 'A' && r <= 'Z' && b.Len() < 3 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

type optionSpec struct {
	name       string
	values     []string
	chance     float64 // how often a product of the category has this option
	min, max   int     // how many values a product uses
	contiguous bool    // a run of values (sizes) rather than a random subset (colours)
}

type feature struct{ text, tag string }

type category struct {
	handle, title, blurb string
	brands, nouns        []string
	adjectives           []string
	materials            []string
	features             []feature
	pitches              []string
	options              []optionSpec
	pricedOption         string // later values of this option cost step more
	step                 int
	priceMin, priceMax   int // whole currency units
	grams                int
}

var colors = []string{"Black", "White", "Navy", "Olive", "Sand", "Charcoal", "Burgundy", "Sky Blue", "Forest Green", "Rust", "Heather Grey", "Cream"}

var categories = []category{
	{
		handle: "apparel", title: "Apparel", blurb: "Everyday clothing built to last.",
		brands:     []string{"Northwind", "Fieldhouse", "Kestrel & Co", "Marlow", "Tidewater"},
		nouns:      []string{"T-Shirt", "Hoodie", "Crewneck Sweater", "Chino Pants", "Denim Jacket", "Polo Shirt", "Cardigan", "Flannel Shirt", "Wrap Dress", "Joggers"},
		adjectives: []string{"Classic", "Everyday", "Relaxed", "Slim-Fit", "Heavyweight", "Essential", "Vintage Wash", "Lightweight"},
		materials:  []string{"Organic Cotton", "Merino Wool", "Linen", "Recycled Polyester", "Cotton", "Hemp Blend"},
		features: []feature{
			{"100% organic cotton, grown without pesticides", "organic-cotton"}, {"Pre-shrunk and garment dyed", "pre-shrunk"},
			{"Machine washable at 30°C", "machine-washable"}, {"Reinforced double-stitched seams", "durable"},
			{"Breathable, moisture-wicking weave", "breathable"}, {"Relaxed fit; size down for a closer fit", "relaxed-fit"},
			{"Made in Portugal in a family-run factory", "made-in-portugal"},
		},
		pitches: []string{"A {noun} you will reach for every day.", "Our best-loved {noun}, now in new colours.", "The {noun} that goes with everything."},
		options: []optionSpec{
			{name: "Size", values: []string{"XS", "S", "M", "L", "XL", "XXL"}, chance: 1, min: 3, max: 6, contiguous: true},
			{name: "Color", values: colors, chance: 0.8, min: 1, max: 3},
		},
		pricedOption: "", priceMin: 18, priceMax: 140, grams: 300,
	},
	{
		handle: "shoes", title: "Shoes", blurb: "Footwear for the trail and the town.",
		brands:     []string{"Stridewell", "Cobble & Last", "Ridgeback", "Paceline"},
		nouns:      []string{"Sneaker", "Running Shoe", "Hiking Boot", "Chelsea Boot", "Loafer", "Sandal", "Trail Runner", "High-Top"},
		adjectives: []string{"Waterproof", "All-Terrain", "Cushioned", "Minimalist", "Classic", "Lightweight", "Insulated"},
		materials:  []string{"Leather", "Suede", "Canvas", "Recycled Mesh", "Nubuck"},
		features: []feature{
			{"Waterproof membrane keeps feet dry", "waterproof"}, {"Full-grain leather upper", "leather"},
			{"Vibram rubber outsole for grip", "vibram"}, {"Removable cushioned insole", "cushioned"},
			{"Resoleable Goodyear welt construction", "resoleable"}, {"Vegan materials throughout", "vegan"},
		},
		pitches: []string{"A {noun} that breaks in, not down.", "Step out in our most comfortable {noun} yet.", "The {noun}, rebuilt with better materials."},
		options: []optionSpec{
			{name: "Size", values: []string{"6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "12", "13"}, chance: 1, min: 4, max: 7, contiguous: true},
			{name: "Color", values: colors[:8], chance: 0.7, min: 1, max: 2},
		},
		priceMin: 45, priceMax: 260, grams: 800,
	},
	{
		handle: "outdoor", title: "Outdoor", blurb: "Gear for camping, hiking and everything between.",
		brands:     []string{"Summit Supply", "Basecamp", "Alder Ridge", "Wayfarer Gear"},
		nouns:      []string{"Backpack", "Two-Person Tent", "Sleeping Bag", "Headlamp", "Trekking Poles", "Water Bottle", "Camp Stove", "Rain Shell", "Hammock"},
		adjectives: []string{"Ultralight", "Packable", "Expedition", "Weatherproof", "Compact", "Trail-Ready"},
		materials:  []string{"Ripstop Nylon", "Aluminium", "Stainless Steel", "Recycled Polyester", "Waxed Canvas"},
		features: []feature{
			{"Waterproof to 3000 mm hydrostatic head", "waterproof"}, {"Packs into its own stuff sack", "packable"},
			{"Lifetime warranty against defects", "warranty"}, {"Reflective details for low light", "reflective"},
			{"PFC-free water-repellent finish", "pfc-free"}, {"Weighs less than a kilogram", "ultralight"},
		},
		pitches: []string{"The {noun} we take on every trip.", "A {noun} ready for the weekend or the whole season.", "Built for the long way round: our {noun}."},
		options: []optionSpec{
			{name: "Color", values: colors[:10], chance: 0.8, min: 1, max: 3},
			{name: "Size", values: []string{"S", "M", "L"}, chance: 0.4, min: 2, max: 3, contiguous: true},
		},
		pricedOption: "Size", step: 10, priceMin: 15, priceMax: 420, grams: 900,
	},
	{
		handle: "home", title: "Home", blurb: "Things that make a house feel like home.",
		brands:     []string{"Hearth & Hollow", "Linden House", "Oakmoor", "Still Water Studio"},
		nouns:      []string{"Throw Blanket", "Ceramic Mug", "Table Lamp", "Cushion Cover", "Cutting Board", "Scented Candle", "Bath Towel", "Duvet Cover", "Planter"},
		adjectives: []string{"Handmade", "Cozy", "Minimal", "Rustic", "Stoneware", "Woven", "Oversized"},
		materials:  []string{"Linen", "Stoneware", "Oak", "Cotton", "Soy Wax", "Wool", "Bamboo"},
		features: []feature{
			{"Handmade by small workshops", "handmade"}, {"Dishwasher safe", "dishwasher-safe"},
			{"OEKO-TEX certified fabric", "oeko-tex"}, {"Sustainably sourced wood", "sustainable"},
			{"Each piece is slightly unique", "one-of-a-kind"}, {"Burns for about 50 hours", "long-burning"},
		},
		pitches: []string{"A {noun} that makes every room calmer.", "Bring warmth home with this {noun}.", "Our {noun}: simple, sturdy and made to be used."},
		options: []optionSpec{
			{name: "Color", values: colors, chance: 0.6, min: 1, max: 3},
			{name: "Size", values: []string{"Small", "Medium", "Large"}, chance: 0.4, min: 2, max: 3, contiguous: true},
		},
		pricedOption: "Size", step: 15, priceMin: 12, priceMax: 190, grams: 600,
	},
	{
		handle: "beauty", title: "Beauty", blurb: "Clean skincare and body care.",
		brands:     []string{"Luma Botanics", "Petal & Pine", "Clearwater Skin", "Saltbloom"},
		nouns:      []string{"Face Serum", "Moisturizer", "Lip Balm", "Shampoo", "Body Lotion", "Hand Cream", "Gel Cleanser", "Mineral Sunscreen"},
		adjectives: []string{"Hydrating", "Gentle", "Daily", "Overnight", "Brightening", "Soothing", "Fragrance-Free"},
		materials:  []string{"Aloe", "Shea Butter", "Vitamin C", "Hyaluronic Acid", "Oat", "Rosehip Oil"},
		features: []feature{
			{"Dermatologist tested for sensitive skin", "dermatologist-tested"}, {"Cruelty-free and vegan", "vegan"},
			{"Fragrance-free formula", "fragrance-free"}, {"Recyclable glass bottle", "recyclable"},
			{"Non-comedogenic", "non-comedogenic"}, {"Made with 98% natural ingredients", "natural"},
		},
		pitches: []string{"A {noun} your skin will thank you for.", "Our cult-favourite {noun}.", "One {noun}, morning and night."},
		options: []optionSpec{
			{name: "Size", values: []string{"30 ml", "50 ml", "100 ml", "200 ml"}, chance: 0.6, min: 1, max: 3, contiguous: true},
		},
		pricedOption: "Size", step: 8, priceMin: 6, priceMax: 85, grams: 150,
	},
	{
		handle: "toys", title: "Toys", blurb: "Play that lasts beyond the first afternoon.",
		brands:     []string{"Little Tinker", "Bramble Bear", "Kitebird", "Puzzlewood"},
		nouns:      []string{"Building Blocks Set", "Plush Bear", "Jigsaw Puzzle", "Wooden Train", "Remote Control Car", "Board Game", "Stacking Rings", "Kite"},
		adjectives: []string{"Classic", "Deluxe", "Rainbow", "Junior", "Family", "Mini"},
		materials:  []string{"Beech Wood", "Organic Cotton", "Recycled Plastic", "Cardboard", "Felt"},
		features: []feature{
			{"Non-toxic, water-based paints", "non-toxic"}, {"Suitable for ages 3 and up", "ages-3-plus"},
			{"Compatible with other block sets", "compatible"}, {"Batteries included", "batteries-included"},
			{"Rounded edges for small hands", "safe"}, {"Comes in a gift-ready box", "gift"},
		},
		pitches: []string{"A {noun} that keeps little hands busy.", "The {noun} every family ends up loving.", "Hours of play with our {noun}."},
		options: []optionSpec{
			{name: "Color", values: colors[:6], chance: 0.4, min: 1, max: 2},
		},
		priceMin: 8, priceMax: 120, grams: 500,
	},
	{
		handle: "electronics", title: "Electronics", blurb: "Small electronics done right.",
		brands:     []string{"Voltline", "Echo Harbor", "Nimbus Audio", "Circuitry"},
		nouns:      []string{"Wireless Earbuds", "Bluetooth Speaker", "USB-C Charger", "Smart Watch", "Power Bank", "Over-Ear Headphones", "Mechanical Keyboard", "Webcam"},
		adjectives: []string{"Pro", "Compact", "Noise-Cancelling", "Fast-Charging", "Rugged", "Wireless"},
		materials:  []string{"Aluminium", "Recycled Plastic", "Silicone", "Glass", "Fabric"},
		features: []feature{
			{"Up to 30 hours of battery life", "long-battery"}, {"Water resistant (IPX5)", "water-resistant"},
			{"Bluetooth 5.3 with multipoint pairing", "bluetooth"}, {"Charges over USB-C", "usb-c"},
			{"Two-year warranty", "warranty"}, {"Low-latency mode for games", "low-latency"},
		},
		pitches: []string{"A {noun} that simply works.", "Meet the {noun} that outlasts your day.", "Big sound, small footprint: our {noun}."},
		options: []optionSpec{
			{name: "Color", values: []string{"Black", "White", "Silver", "Midnight Blue", "Coral"}, chance: 0.8, min: 1, max: 3},
		},
		priceMin: 15, priceMax: 480, grams: 250,
	},
}
