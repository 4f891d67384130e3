package rank

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// gatherPrices reads the price candidates: JSON-LD offers, itemprop and RDFa prices,
// price meta tags, and the visible elements and texts that show an amount.
func (r *reader) gatherPrices(p *Page) {
	var cands []Candidate
	for i, e := range r.products {
		r.offerPrices(&cands, e.Get("offers"), i == 0, false)
		for j, v := range e.Get("hasVariant").List() {
			if j >= maxOffers {
				break
			}
			r.offerPrices(&cands, v.Get("offers"), i == 0, true)
		}
	}
	r.propPrices(&cands)
	for _, m := range []struct {
		key    string
		struck bool
	}{
		{"product:price:amount", false}, {"og:price:amount", false}, {"product:sale_price:amount", false},
		{"product:original_price:amount", true}, {"og:original_price:amount", true},
	} {
		if tag, ok := r.meta(m.key); ok {
			cur, _ := r.meta(strings.Replace(m.key, ":amount", ":currency", 1))
			if f, ok := markupAmount(tag.content, r.markupCode(cur.content)); ok {
				cands = append(cands, Candidate{Field: Price, Source: Meta, Value: amountValue(f), Amount: f, Where: "meta " + m.key,
					currency: r.markupCode(cur.content), struck: m.struck})
			}
		}
	}
	r.currencyHint = r.locale.Currency()
	for _, c := range cands {
		if c.currency != "" {
			r.currencyHint = c.currency
			break
		}
	}
	r.visiblePrices(&cands)
	for i := range cands {
		r.priceFeatures(&cands[i])
	}
	loneFormerPrices(cands)
	agree(cands, func(c *Candidate) string { return c.Value })
	markFirstNear(cands)
	r.headingPrices(p, cands)
	for _, c := range cands {
		if c.struck && c.Amount > 0 {
			p.CompareAt = append(p.CompareAt, c)
		}
	}
	p.Candidates[Price] = cands
}

// formerRule is the rule that rules out a former or reference price.
const formerRule = "a former or reference price"

// maxOffers bounds the offers and variants read from one product entity.
const maxOffers = 40

// offerPrices adds the prices of a schema.org Offer, AggregateOffer or list of them.
func (r *reader) offerPrices(cands *[]Candidate, offers sdk.Value, first, variant bool) {
	start := len(*cands)
	for i, o := range offers.List() {
		if i >= maxOffers || o.Kind() != sdk.Object {
			break
		}
		f := o.Strings("price", "priceCurrency", "lowPrice", "highPrice")
		add := func(amount, currency, where string, struck bool) *Candidate {
			a, ok := markupAmount(amount, r.markupCode(currency))
			if !ok {
				return nil
			}
			c := Candidate{Field: Price, Source: JSONLD, Value: amountValue(a), Amount: a, Where: where, currency: r.markupCode(currency), struck: struck}
			if first {
				c.Features[FirstEntity] = 1
			}
			if variant {
				c.Features[VariantOffer] = 1
			}
			*cands = append(*cands, c)
			return &(*cands)[len(*cands)-1]
		}
		if f[0] != "" {
			add(f[0], f[1], "jsonld offers.price", false)
		}
		if f[2] != "" {
			if c := add(f[2], f[1], "jsonld offers.lowPrice", false); c != nil {
				c.Features[AggregateLow] = 1
			}
		}
		if f[3] != "" {
			if c := add(f[3], f[1], "jsonld offers.highPrice", false); c != nil {
				c.Excluded = "the high end of a range"
			}
		}
		for j, spec := range o.Get("priceSpecification").List() {
			if j >= 8 || spec.Kind() != sdk.Object {
				break
			}
			s := spec.Strings("price", "priceCurrency", "priceType", "@type", "referenceQuantity")
			kind := strings.ToLower(s[2])
			struck := strings.Contains(kind, "list") || strings.Contains(kind, "strikethrough") || strings.Contains(kind, "msrp") ||
				strings.HasSuffix(kind, "srp")
			if c := add(s[0], cmpOr(s[1], f[1]), "jsonld offers.priceSpecification", struck); c != nil && s[4] != "" {
				c.Features[OtherKind] = 1
			}
		}
		if sub := o.Get("offers"); sub.Exists() && IsType(o, "AggregateOffer") {
			r.offerPrices(cands, sub, first, variant)
		}
	}
	// The lowest of several offers is what the product costs from.
	lowest := -1
	for i := start; i < len(*cands); i++ {
		c := &(*cands)[i]
		if c.Excluded == "" && !c.struck && (lowest < 0 || c.Amount < (*cands)[lowest].Amount) {
			lowest = i
		}
	}
	if lowest >= 0 && len(*cands)-start > 1 {
		(*cands)[lowest].Features[LowestOffer] = 1
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// propPrices adds itemprop and RDFa prices.
func (r *reader) propPrices(cands *[]Candidate) {
	props := r.propsNamed("price", "lowprice", "highprice")
	if len(props) == 0 {
		return
	}
	values, scopes := propValues(props), productScopes(props)
	first := r.firstMicrodataPrices()
	currency := ""
	if cs := r.propsNamed("pricecurrency"); len(cs) > 0 {
		currency = r.markupCode(propValues(cs[:1])[0])
	}
	var visible []sdk.Node
	var at []int
	for i, pr := range props {
		a, ok := markupAmount(values[i], currency)
		shownCurrency := ""
		if pr.content == "" {
			a, shownCurrency, _, ok = shownAmount(values[i], currency)
		}
		if !ok {
			continue
		}
		c := Candidate{Field: Price, Source: pr.source, Value: amountValue(a), Amount: a, Where: "itemprop " + pr.name, currency: currency}
		if pr.source == RDFa {
			c.Where = "property " + pr.name
		}
		if shownCurrency != "" {
			c.currency = shownCurrency
		}
		switch pr.name {
		case "lowprice":
			c.Features[AggregateLow] = 1
		case "highprice":
			c.Excluded = "the high end of a range"
		}
		if scopes[i] {
			c.Features[ProductScope] = 1
		}
		if first[c.Value] {
			c.Features[FirstEntity] = 1
		}
		visible = append(visible, pr.node)
		at = append(at, len(*cands))
		*cands = append(*cands, c)
	}
	for j, e := range r.describe(visible) {
		if e.inHead {
			continue
		}
		el := e
		c := &(*cands)[at[j]]
		c.el = &el
		c.struck = c.struck || el.struck
	}
}

// firstMicrodataPrices are the prices of the page's first microdata product: the one the
// page is about, where later items are often related products.
func (r *reader) firstMicrodataPrices() map[string]bool {
	out := map[string]bool{}
	for _, item := range r.doc.Microdata().Array() {
		if !IsProduct(item) {
			continue
		}
		var cands []Candidate
		r.offerPrices(&cands, item.Get("offers"), true, false)
		for _, c := range cands {
			out[c.Value] = true
		}
		break
	}
	return out
}

// visiblePrices adds the elements whose class or id says price and whose short text is
// one amount, and the short texts elsewhere that are an amount with a currency.
func (r *reader) visiblePrices(cands *[]Candidate) {
	// shownPrice is an element showing an amount: its text, the amount and the currency
	// the text names ("" when it names none).
	type shownPrice struct {
		node     sdk.Node
		text     string
		amount   float64
		currency string
	}
	classed := sdk.Nodes(r.root.FindClass(priceClassWords...))
	if len(classed) > maxPriceElements {
		classed = classed[:maxPriceElements]
	}
	var shown []shownPrice
	for i, t := range classed.Text() {
		if len(t) == 0 || len(t) > maxPriceText {
			continue
		}
		if amountsIn(t) != 1 {
			if amountsIn(t) > 1 {
				r.pricePairs = append(r.pricePairs, classed[i])
			}
			continue
		}
		a, cur, _, ok := shownAmount(t, r.currencyHint)
		if !ok {
			continue
		}
		if !strings.ContainsAny(t, ".,") {
			// "63<sup>07</sup> Lei" reads "6307 Lei": the cents are a text of their own.
			if cents, ok := splitCents(classed[i].Texts("")); ok {
				a = cents
			}
		}
		// An element holding its amount in a child of the same class is a container:
		// the child is the candidate, with the container's currency.
		if n := len(shown); n > 0 && shown[n-1].amount == a && inside(classed[i], shown[n-1].node) {
			cur = cmpOr(cur, shown[n-1].currency)
			shown = shown[:n-1]
		}
		shown = append(shown, shownPrice{classed[i], t, a, cur})
	}
	classedCount := len(shown)
	// Amounts with a currency in texts of their own, outside any price class.
	labels := sdk.Nodes(r.root.FindLabels(amountStarts...))
	if len(labels) > maxAmountTexts {
		labels = labels[:maxAmountTexts]
	}
	var loose sdk.Nodes
	var looseShown []shownPrice
	for i, t := range labels.Text() {
		// Only an amount that writes its currency counts here, so that is read first:
		// it is the cheaper of the two readings.
		if len(t) > maxPriceText || amountsIn(t) != 1 || !sdk.WritesCurrency(t) {
			continue
		}
		a, cur, ok := sdk.ParseAmount(t, r.currencyHint)
		if !ok {
			continue
		}
		loose, looseShown = append(loose, labels[i]), append(looseShown, shownPrice{text: t, amount: a, currency: cur})
		if len(loose) >= maxPriceElements/4 {
			break
		}
	}
	if len(loose) > 0 {
		for i, parent := range loose.Ancestor("*") {
			if parent.Exists() {
				looseShown[i].node = parent
				shown = append(shown, looseShown[i])
			}
		}
	}
	nodes := make([]sdk.Node, len(shown))
	for i, s := range shown {
		nodes[i] = s.node
	}
	els := r.describe(nodes)
	for i := range els {
		el := &els[i]
		src := Element
		if i >= classedCount {
			if el.priceClass {
				// Its element was read by its class already.
				continue
			}
			src = Text
		}
		s := shown[i]
		t := strings.ToLower(s.text)
		c := Candidate{Field: Price, Source: src, Value: amountValue(s.amount), Amount: s.amount, Where: el.where() + " " + truncate(s.text, 40),
			currency: s.currency, el: el}
		wordedFormer := struckTexts.In(t)
		c.struck = el.struck || wordedFormer
		c.namedFormer = el.struck && !el.drawnStruck && !wordedFormer
		if otherPriceTexts.In(t) {
			c.Features[OtherKind] = 1
		}
		if hasPrefixAny(t, fromTexts) {
			c.Features[FromPrice] = 1
		}
		if extraLetters(s.text) > 3 {
			c.Features[ExtraText] = 1
		}
		*cands = append(*cands, c)
	}
}

// Bounds of the visible price reading: elements read, the length of a price's text,
// texts read by their form.
const (
	maxPriceElements = 40
	maxPriceText     = 48
	maxAmountTexts   = 100
)

// amountStarts are what a text showing an amount begins with: a digit or a currency.
var amountStarts = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "$", "€", "£", "¥", "₹", "₩", "₽", "₺", "₪",
	"₫", "฿", "₱", "₴", "₸", "r$", "us$", "nt$", "hk$", "s$", "a$", "c$", "chf", "usd", "eur", "gbp", "rs", "zł", "kr"}

// splitCents reads an amount whose cents are written apart, in a text of their own
// (a superscript): an integer text followed by a text of exactly two digits.
func splitCents(pieces []string) (float64, bool) {
	var nums []string
	for _, p := range pieces {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		digits := strings.TrimFunc(p, func(r rune) bool { return r < '0' || r > '9' })
		if digits == "" {
			continue
		}
		nums = append(nums, digits)
	}
	if len(nums) != 2 || len(nums[1]) != 2 || strings.ContainsAny(nums[0], ".,") {
		return 0, false
	}
	whole, ok := sdk.ParseMachinePrice(nums[0])
	if !ok {
		return 0, false
	}
	cents, _ := sdk.ParseMachinePrice(nums[1])
	return whole + cents/100, true
}

// amountsIn counts the separate amounts written in s, up to 2.
func amountsIn(s string) int {
	var spans [2][2]int
	return len(appendAmountSpans(spans[:0], s))
}

// appendAmountSpans appends to spans where the separate amounts written in s start and
// end, until spans is full (its capacity): the digits and the separators between them,
// without a currency. Price texts are read by the hundred a page, so the caller's array
// holds them.
func appendAmountSpans(spans [][2]int, s string) [][2]int {
	inNumber := false
	// marked says the amount has had a decimal mark or a group separator other than a
	// space; digits counts the digits since the last separator.
	marked, digits := false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if !inNumber {
				if len(spans) == cap(spans) {
					return spans
				}
				spans = append(spans, [2]int{i, i})
				marked, digits = false, 0
			}
			inNumber = true
			digits++
			spans[len(spans)-1][1] = i + 1
		case inNumber && c == ' ' && marked && digits != 3:
			// Decimals end an amount: "881,00 169,00" is two.
			inNumber = false
		case inNumber && (c == '.' || c == ',' || c == ' ' || c == '\''):
			// Separators inside an amount; a space may also end it, which the next
			// character tells.
			marked = marked || c != ' '
			digits = 0
		default:
			inNumber = false
		}
	}
	return spans
}

// extraLetters counts the letters of s outside currency codes: the words around an
// amount ("From", "Save", "per month").
func extraLetters(s string) int {
	n := 0
	for _, w := range words(s) {
		if len(w) == 3 && isCurrencyCode(strings.ToUpper(w)) {
			continue
		}
		for _, r := range w {
			if r < '0' || r > '9' {
				n++
			}
		}
	}
	return n
}

func hasPrefixAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// priceFeatures describes a price candidate and applies the price rules.
func (r *reader) priceFeatures(c *Candidate) {
	v := r.baseFeatures(c)
	if c.currency != "" {
		v[HasCurrency] = 1
	}
	switch {
	case c.Excluded != "":
	case c.Amount <= 0:
		c.Excluded = "not above zero"
	case c.Amount >= 1e10:
		c.Excluded = "too large for a price"
	case c.struck:
		c.Excluded = formerRule
	}
}

// loneFormerPrices lets a price that only its class calls former ("price-old") compete
// when no other price is shown as near the heading and the markup states none: some
// themes write that class on the one price they show, and add the current price beside
// it only for a sale.
func loneFormerPrices(cands []Candidate) {
	for i := range cands {
		f := &cands[i]
		if !f.namedFormer || f.el == nil || f.el.headingLevel < 0 || f.Excluded != formerRule {
			continue
		}
		beside := false
		for j := range cands {
			o := &cands[j]
			if !o.Competes() || o.Value == f.Value {
				continue
			}
			shownBeside := o.el != nil && o.Features[OtherKind] == 0 && !o.el.other && o.el.headingLevel >= 0 &&
				o.el.headingLevel <= f.el.headingLevel
			if shownBeside || o.Source.structured() {
				beside = true
				break
			}
		}
		if !beside {
			f.struck, f.Excluded = false, ""
		}
	}
}

// headingPrices counts the prices in the smallest block around the heading that shows
// any: its distinct amounts, and its price elements that show several (a listing tile's
// former and current price is one more product's price).
func (r *reader) headingPrices(p *Page, cands []Candidate) {
	p.HeadingPriceLevel = -1
	for _, c := range cands {
		if c.el == nil || c.Source != Element || c.el.headingLevel < 0 {
			continue
		}
		if p.HeadingPriceLevel < 0 || c.el.headingLevel < p.HeadingPriceLevel {
			p.HeadingPriceLevel = c.el.headingLevel
		}
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if c.el != nil && c.Source == Element && c.el.headingLevel >= 0 && c.el.headingLevel <= p.HeadingPriceLevel {
			seen[c.Value] = true
		}
	}
	p.PricesNearHeading = len(seen)
	if p.HeadingPriceLevel < 0 || p.HeadingPriceLevel >= len(r.heading) {
		return
	}
	block := r.heading[p.HeadingPriceLevel]
	var pairs sdk.Nodes
	for _, n := range r.pricePairs {
		if inside(n, block) {
			pairs = append(pairs, n)
		}
	}
	if len(pairs) == 0 {
		return
	}
	// A pair counts when it shows an amount the block's elements do not: a tile's
	// prices do, the product's own former and current price beside each other do not.
	var spans [maxPairAmounts][2]int
	for _, t := range pairs.Text() {
		for _, span := range appendAmountSpans(spans[:0], t) {
			if a, _, ok := sdk.ParseAmount(t[span[0]:span[1]], r.currencyHint); !ok || !seen[amountValue(a)] {
				p.PricesNearHeading++
				break
			}
		}
	}
}

// maxPairAmounts bounds the amounts read from a price element that shows several.
const maxPairAmounts = 4

// markFirstNear marks the first competing visible candidate, in document order, among
// those nearest the heading. Gatherers add visible candidates in document order.
func markFirstNear(cands []Candidate) {
	nearest := -1
	for _, c := range cands {
		if c.el != nil && c.Competes() && !c.el.other && c.el.headingLevel >= 0 && (nearest < 0 || c.el.headingLevel < nearest) {
			nearest = c.el.headingLevel
		}
	}
	for i := range cands {
		c := &cands[i]
		if c.el != nil && c.Competes() && !c.el.other && c.el.headingLevel == nearest {
			c.Features[FirstNear] = 1
			return
		}
	}
}

// agree sets the agreement features of each candidate: whether another structured
// source, a visible element, a visible element near the heading gives the same value
// (by key), how often the page shows it, and, for structured data, whether no
// competing candidate gives another value.
func agree(cands []Candidate, key func(*Candidate) string) {
	keys := make([]string, len(cands))
	for i := range cands {
		keys[i] = key(&cands[i])
	}
	values := map[string]bool{}
	for i := range cands {
		if keys[i] != "" && cands[i].Excluded == "" {
			values[keys[i]] = true
		}
	}
	for i := range cands {
		c := &cands[i]
		if keys[i] == "" {
			continue
		}
		if len(values) == 1 && c.Excluded == "" && c.Source.structured() {
			c.Features[Alone] = 1
		}
		shown := 0
		for j := range cands {
			o := &cands[j]
			if keys[j] != keys[i] || o.Excluded != "" {
				continue
			}
			if o.el != nil && !o.el.other && !o.el.hidden {
				shown++
			}
			if i == j || o.Source == c.Source {
				continue
			}
			if o.Source.structured() {
				c.Features[AgreeStructured] = 1
			}
			if o.el != nil && !o.el.other && !o.el.hidden {
				c.Features[AgreeVisible] = 1
				if o.el.headingLevel >= 0 && o.el.headingLevel <= 4 {
					c.Features[AgreeNear] = 1
				}
			}
		}
		c.Features[Repeats] = min(float64(shown), 8) / 8
	}
}
