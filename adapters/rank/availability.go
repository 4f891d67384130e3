package rank

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// gatherAvailability reads the stock statements: structured availability, availability
// meta tags, stock lines and their labels, the buy buttons' state and wording, and what
// a page that says nothing implies.
func (r *reader) gatherAvailability(p *Page, buttons []buyControl) {
	var cands []Candidate
	add := func(src Source, in bool, where string, el *element) {
		v := OutOfStock
		if in {
			v = InStock
		}
		cands = append(cands, Candidate{Field: Availability, Source: src, Value: v, Where: where, el: el})
	}
	for i, e := range r.products {
		if in, ok := offersAvailability(e.Get("offers")); ok {
			add(JSONLD, in, "jsonld offers.availability", nil)
			if i == 0 {
				cands[len(cands)-1].Features[FirstEntity] = 1
			}
		}
		for j, v := range e.Get("hasVariant").List() {
			if j >= maxOffers {
				break
			}
			if in, ok := offersAvailability(v.Get("offers")); ok && in {
				add(JSONLD, in, "jsonld hasVariant.offers.availability", nil)
				cands[len(cands)-1].Features[VariantOffer] = 1
				break
			}
		}
	}
	props := r.propsNamed("availability")
	for i, v := range propValues(props) {
		if i >= 4 {
			break
		}
		if in, ok := availabilityValue(v); ok {
			add(props[i].source, in, "itemprop availability", nil)
		}
	}
	for _, key := range []string{"product:availability", "og:availability"} {
		if m, ok := r.meta(key); ok {
			if in, ok := availabilityValue(m.content); ok {
				add(Meta, in, "meta "+key, nil)
			}
		}
	}
	r.stockLines(add)
	r.buttonWording(add)
	for i := range buttons {
		// A disabled button often waits for a size or colour to be chosen: it says
		// nothing of the stock. An enabled one sells, unless it is another product's.
		if b := &buttons[i]; b.enabled && !b.other {
			add(Button, true, "enabled buy button", &b.element)
		}
	}
	priced := false
	for _, c := range p.Candidates[Price] {
		priced = priced || c.Excluded == ""
	}
	if (priced || p.BuyEnabled > 0) && len(cands) == 0 {
		// A page that says nothing of its stock and shows a price is selling: a shop
		// shows prices for what it sells. One that says something is read as it says.
		add(Implied, true, "a price or a buy button on show", nil)
	}
	for i := range cands {
		c := &cands[i]
		v := &c.Features
		v[Bias] = 1
		v[sourceFeature(c.Source)] = 1
		if c.Value == InStock {
			v[SaysInStock] = 1
		}
		if c.el != nil {
			if c.Source != Button {
				r.measure(c.el)
			}
			c.el.setRegions(v)
		}
	}
	agree(cands, func(c *Candidate) string { return c.Value })
	markFirstNear(cands)
	p.Candidates[Availability] = cands
}

// stockLines adds the stock lines: the short texts of elements whose class or id speaks
// of availability or stock, and the texts after an availability label.
func (r *reader) stockLines(add func(Source, bool, string, *element)) {
	classed := sdk.Nodes(r.root.FindClass(stockClassWords...))
	if len(classed) > maxStockElements {
		classed = classed[:maxStockElements]
	}
	var nodes []sdk.Node
	var says []bool
	for i, t := range classed.Text() {
		t = strings.ToLower(t)
		if t == "" || len(t) > 120 {
			continue
		}
		if in, ok := stockWords(t); ok {
			nodes, says = append(nodes, classed[i]), append(says, in)
		}
		if len(nodes) >= 8 {
			break
		}
	}
	classedCount := len(nodes)
	for i, n := range r.root.FindLabels(stockLabels...) {
		if i >= 10 {
			break
		}
		t := strings.ToLower(n.Text())
		if _, v, found := strings.Cut(t, ":"); found && strings.TrimSpace(v) != "" {
			t = v
		} else {
			t = strings.ToLower(n.TextOf("following::text()[normalize-space(.)][1]"))
		}
		if in, ok := stockWords(t); ok {
			nodes, says = append(nodes, n), append(says, in)
		}
	}
	els := r.describe(nodes)
	for i := range els {
		src, where := Element, "stock line "+els[i].where()
		if i >= classedCount {
			src, where = Label, "after an availability label"
		}
		add(src, says[i], where, &els[i])
	}
}

// buttonWording adds what the page's buttons say of the stock: a buy button that reads
// "Sold out", "Notify me" or "Pre-order" in place of "Add to cart". A button's state
// alone is read in findBuy; its wording holds whether it is enabled or not. Several
// buttons that say sold out are a size picker's or other products' tiles, which say
// nothing of the product as a whole.
func (r *reader) buttonWording(add func(Source, bool, string, *element)) {
	controls := sdk.Nodes(r.root.Find(wordedButtons))
	if len(controls) > maxWordedButtons {
		controls = controls[:maxWordedButtons]
	}
	texts, values := controls.Text(), controls.Attr("value")
	var nodes []sdk.Node
	var says []bool
	out := 0
	for i := range controls {
		t := strings.ToLower(strings.TrimSpace(texts[i] + " " + values[i]))
		if len(t) > maxButtonWording {
			continue
		}
		if in, ok := stockWords(t); ok {
			nodes, says = append(nodes, controls[i]), append(says, in)
			if !in {
				out++
			}
		}
	}
	if out > maxSoldOutButtons {
		return
	}
	els := r.describe(nodes)
	for i := range els {
		add(Button, says[i], "button says "+stockValue(says[i]), &els[i])
	}
}

// stockValue names a stock statement as Explain shows it.
func stockValue(in bool) string {
	if in {
		return InStock
	}
	return OutOfStock
}

// wordedButtons are the controls whose wording may state the stock: buttons and submit
// inputs with a short label. The descendant axis selects what "//button" would, in the
// same order, in one walk of the page; the host's XPath engine reads "//" as a step to
// the children of every node.
const wordedButtons = "/descendant::button[string-length(normalize-space(.)) < 48] | /descendant::input[(@type='submit' or @type='button') and string-length(@value) < 48]"

// maxWordedButtons bounds the buttons read for their wording, maxButtonWording the length
// of a wording read as a stock statement, and maxSoldOutButtons the sold-out buttons a
// page of one product shows.
const (
	maxWordedButtons  = 80
	maxButtonWording  = 40
	maxSoldOutButtons = 3
)

// maxStockElements bounds the elements read as stock lines.
const maxStockElements = 60

// ReadStock reads a stock statement as stores write it, in the languages they use: "In
// stock", "Auf Lager" and "Pre-order" are in stock, "Sold out", "Derzeit nicht verfügbar"
// and "Notify me" out of it; ok is false when the text says neither. Platform adapters
// read their stock lines with it.
func ReadStock(text string) (in, ok bool) { return stockWords(strings.ToLower(text)) }

// stockWords reads a stock line: ok is false when it says neither in nor out of stock.
// Sold-out wording is looked for first: "not available" holds "available".
func stockWords(t string) (in, ok bool) {
	switch {
	case outWords.In(t):
		return false, true
	case inWords.In(t):
		return true, true
	}
	return false, false
}

// availabilityValue reads a schema.org ItemAvailability in any spelling (a URL, a bare
// name, words): ok is false when it says neither.
func availabilityValue(s string) (in, ok bool) {
	a := strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(s))
	switch {
	case a == "":
		return false, false
	case strings.Contains(a, "outofstock"), strings.Contains(a, "soldout"), strings.Contains(a, "discontinued"),
		strings.Contains(a, "unavailable"), strings.Contains(a, "oos"):
		return false, true
	case strings.Contains(a, "instock"), strings.Contains(a, "preorder"), strings.Contains(a, "presale"), strings.Contains(a, "backorder"),
		strings.Contains(a, "limitedavailability"), strings.Contains(a, "onlineonly"), strings.Contains(a, "instoreonly"),
		a == "available", a == "in":
		return true, true
	}
	return stockWords(strings.ToLower(s))
}

// offersAvailability reads an Offer, AggregateOffer or list of offers: in stock when any
// offer is.
func offersAvailability(v sdk.Value) (in, ok bool) {
	for i, o := range v.List() {
		if i >= maxOffers || o.Kind() != sdk.Object {
			break
		}
		if a, found := availabilityValue(o.Get("availability").String()); found {
			ok = true
			in = in || a
		}
		if sub := o.Get("offers"); sub.Exists() {
			if a, found := offersAvailability(sub); found {
				ok = true
				in = in || a
			}
		}
	}
	return in, ok
}
