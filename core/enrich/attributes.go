package enrich

import (
	"strconv"
	"strings"
)

// Attributes are the enrichment attributes of a product (api-decisions.md, "Product
// object"). Every value quotes or normalizes words found in the product's own data; a
// key with no evidence is null (scalars) or empty (lists).
type Attributes struct {
	Summary              *string               `json:"summary"`
	Features             []string              `json:"features"`
	Gender               *string               `json:"gender"`
	AgeGroup             *string               `json:"age_group"`
	Color                *Color                `json:"color"`
	Material             *Material             `json:"material"`
	Pattern              *string               `json:"pattern"`
	ClosureType          *string               `json:"closure_type"`
	CareInstructions     *string               `json:"care_instructions"`
	Season               []string              `json:"season"`
	Style                []string              `json:"style"`
	Occasion             []string              `json:"occasion"`
	AdditionalAttributes []AdditionalAttribute `json:"additional_attributes"`
}

// Color is the product's single color: the store's label and, when the label contains a
// known color word, its family ("Midnight Navy" -> blue). Family is null for labels such
// as "Frost" that name no color the vocabulary knows.
type Color struct {
	Family        *string `json:"family"`
	MerchantLabel string  `json:"merchant_label"`
}

// Material is the product's main material: the canonical name and the store's words
// ("cotton", "100% organic cotton").
type Material struct {
	Primary       string `json:"primary"`
	MerchantLabel string `json:"merchant_label"`
}

// AdditionalAttribute is one more fact about the product: a property the page states
// (JSON-LD additionalProperty) or a claim found in its text ("waterproof").
type AdditionalAttribute struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// field is one piece of evidence, tokenized once.
type field struct {
	source string // "properties", "title", "product_type", "breadcrumbs", "tags", "options", "description"
	text   string
	toks   []token
}

func newField(source, text string) field {
	return field{source: source, text: text, toks: tokenize(text)}
}

// strong reports whether the field is a short label rather than running text.
func (f field) strong() bool { return f.source != "description" }

// facts is the product's evidence, prepared once for all the rules.
type facts struct {
	props       []Property
	title       string
	fields      []field // priority order: properties, title, product_type, breadcrumbs, tags, options, description
	descText    string  // description as plain text
	descSents   []string
	careSents   []string
	items       []string // <li> items of the description markup
	colorValues []string // values of the color options
	categoryTop string   // first segment of the matched category, "" when none
}

func prepare(p productView, props []Property, categoryPath string) *facts {
	f := &facts{props: props, title: p.title}
	for _, pr := range props {
		if v := squash(pr.Value); v != "" {
			f.fields = append(f.fields, newField("properties", squash(pr.Name)+": "+v))
		}
	}
	if p.title != "" {
		f.fields = append(f.fields, newField("title", p.title))
	}
	if p.productType != "" {
		f.fields = append(f.fields, newField("product_type", p.productType))
	}
	for _, b := range p.breadcrumbs {
		f.fields = append(f.fields, newField("breadcrumbs", b))
	}
	for _, t := range p.tags {
		f.fields = append(f.fields, newField("tags", t))
	}
	for _, o := range p.options {
		f.fields = append(f.fields, newField("options", o.Name+": "+strings.Join(o.Values, ", ")))
		if colorOptionNames[strings.Join(words(o.Name), " ")] {
			f.colorValues = append(f.colorValues, o.Values...)
		}
	}
	f.descText = p.descText
	f.items = p.items
	for _, s := range sentences(p.descText) {
		if isCare(s) {
			f.careSents = append(f.careSents, s)
			continue
		}
		f.descSents = append(f.descSents, s)
		f.fields = append(f.fields, newField("description", s))
	}
	if i := strings.Index(categoryPath, " > "); i >= 0 {
		f.categoryTop = categoryPath[:i]
	} else {
		f.categoryTop = categoryPath
	}
	return f
}

// deriveAttributes applies every rule of RULES.md to the prepared evidence.
func deriveAttributes(f *facts) Attributes {
	a := Attributes{
		Features: f.features(), Season: f.seasons(), Style: f.list(styles),
		Occasion: f.list(occasions), AdditionalAttributes: f.additional(),
	}
	a.Summary = f.summary()
	a.Gender, a.AgeGroup = f.genderAge()
	a.Color = f.color()
	a.Material = f.material()
	a.Pattern = f.first(patterns, "pattern", true)
	if f.closureApplies() {
		a.ClosureType = f.first(closures, "closure", true)
	}
	if len(f.careSents) > 0 {
		var parts []string
		n := 0
		for _, s := range f.careSents {
			if n+len(s) > 500 || len(parts) == 5 {
				break
			}
			parts = append(parts, s)
			n += len(s) + 1
		}
		if len(parts) == 0 {
			parts = []string{cut(f.careSents[0], 500)}
		}
		a.CareInstructions = ptr(strings.Join(parts, " "))
	}
	return a
}

// summary: the first sentences of the description's first paragraph (care sentences
// skipped), up to 200 bytes; a first sentence longer than that is cut at a word boundary.
func (f *facts) summary() *string {
	var sents []string
	for _, para := range strings.Split(f.descText, "\n") {
		for _, s := range sentences(para) {
			if !isCare(s) {
				sents = append(sents, s)
			}
		}
		if len(sents) > 0 {
			break
		}
	}
	if len(sents) == 0 {
		return nil
	}
	out := ""
	for _, s := range sents {
		next := s
		if out != "" {
			next = out + " " + s
		}
		if len(next) > 200 {
			break
		}
		out = next
	}
	if out == "" {
		out = cut(sents[0], 200)
	}
	return ptr(out)
}

var featureCues = newVocab(map[string][]string{"feature": {"features", "featuring", "built in",
	"includes", "including", "equipped", "designed", "compatible", "adjustable", "removable",
	"detachable", "reinforced", "padded", "lightweight", "durable", "pocket", "pockets",
	"insulated", "waterproof", "water resistant", "breathable", "made with", "made from",
	"made of", "ergonomic", "rechargeable", "wireless", "foldable", "portable"}})

// features: the <li> items of the description markup; else lines of the plain
// description that start with a bullet; else description sentences with a feature cue
// (care sentences and the summary's sentences excluded). At most 20, each at most 300
// bytes.
func (f *facts) features() []string {
	out := []string{}
	seen := map[string]bool{}
	add := func(s string) {
		s = cut(strings.TrimSpace(strings.TrimLeft(squash(s), "-•*–·✓✔ ")), 300)
		k := fold(s)
		if s == "" || seen[k] || len(out) == 20 {
			return
		}
		seen[k] = true
		out = append(out, s)
	}
	for _, it := range f.items {
		add(it)
	}
	if len(out) > 0 {
		return out
	}
	for _, line := range strings.Split(f.descText, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "• ") || strings.HasPrefix(l, "* ") || strings.HasPrefix(l, "– ") || strings.HasPrefix(l, "✓") || strings.HasPrefix(l, "✔") {
			add(l)
		}
	}
	if len(out) > 0 {
		return out
	}
	summary := ""
	if s := f.summary(); s != nil {
		summary = *s
	}
	for _, s := range f.descSents {
		if strings.Contains(summary, s) {
			continue
		}
		if len(featureCues.find(tokenize(s))) > 0 && len(out) < 10 {
			add(s)
		}
	}
	return out
}

var careCues = newVocab(map[string][]string{"care": {"wash", "washes", "washed", "washing",
	"washable", "handwash", "hand wash", "machine wash", "dry clean", "dry cleaning",
	"dry cleaned", "iron", "ironing", "bleach", "tumble", "tumble dry", "dishwasher",
	"line dry", "dry flat", "lay flat", "wipe clean", "spot clean", "hand washing",
	"care instructions", "wash care", "lavage", "waschen", "lavar"}})

// isCare reports whether a sentence is a care instruction: it mentions washing, dry
// cleaning, ironing, bleaching, tumble drying or the dishwasher. "cast iron", "face wash",
// "body wash" and the like are products, not care.
func isCare(s string) bool {
	toks := tokenize(s)
	for _, h := range careCues.find(toks) {
		prev := ""
		if h.i > 0 {
			prev = toks[h.i-1].word
		}
		w := toks[h.i].word
		if w == "iron" && (prev == "cast" || prev == "wrought" || prev == "curling" || prev == "flat" || prev == "steam") {
			continue
		}
		if strings.HasPrefix(w, "wash") && (prev == "face" || prev == "body" || prev == "mouth" || prev == "car" || prev == "hand" && h.j < len(toks) && toks[h.j].word == "soap") {
			continue
		}
		return true
	}
	return false
}

// colorOptionNames are the option names that carry colors.
var colorOptionNames = set("color", "colour", "colors", "colours", "couleur", "couleurs",
	"farbe", "kleur", "colore", "color name", "colour name", "shade", "frame color",
	"color family")

var colorModifiers = set("light", "dark", "pale", "deep", "bright", "dusty", "heather",
	"neon", "matte", "matt", "metallic", "soft", "washed", "faded", "true", "hot", "pastel",
	"vivid", "rich", "warm", "cool", "clair", "claire", "fonce", "foncee", "hell", "dunkel",
	"claro", "oscuro", "and", "with", "&")

// color: a color property; else the single value of a color option; else a title suffix
// ("Classic Tee - Navy") made only of color words. Several color values: null, the
// product has no single color.
func (f *facts) color() *Color {
	for _, p := range f.props {
		if colorOptionNames[strings.Join(words(p.Name), " ")] && squash(p.Value) != "" {
			return newColor(squash(p.Value))
		}
	}
	if len(f.colorValues) == 1 {
		return newColor(squash(f.colorValues[0]))
	}
	if len(f.colorValues) > 1 || f.categoryTop == "Food, Beverages & Tobacco" {
		return nil
	}
	seg := titleSuffix(f.title)
	if seg == "" {
		return nil
	}
	toks := tokenize(seg)
	hits := colorFamilies.find(toks)
	if len(hits) == 0 {
		return nil
	}
	covered := make([]bool, len(toks))
	for _, h := range hits {
		for k := h.i; k < h.j; k++ {
			covered[k] = true
		}
	}
	for k, t := range toks {
		if !covered[k] && !colorModifiers[t.word] {
			return nil
		}
	}
	return newColor(seg)
}

// titleSuffix is the last segment of a title split at " - ", " | ", " / ", ", " or " – ".
func titleSuffix(title string) string {
	best := -1
	sepLen := 0
	for _, sep := range []string{" - ", " | ", " / ", ", ", " – ", " — "} {
		if i := strings.LastIndex(title, sep); i > best {
			best, sepLen = i, len(sep)
		}
	}
	if best < 0 {
		return ""
	}
	return strings.TrimSpace(title[best+sepLen:])
}

func newColor(label string) *Color {
	c := &Color{MerchantLabel: label}
	fams := []string{}
	for _, h := range colorFamilies.find(tokenize(label)) {
		if !contains(fams, h.value) {
			fams = append(fams, h.value)
		}
	}
	switch {
	case len(fams) == 1:
		c.Family = ptr(fams[0])
	case len(fams) > 1:
		c.Family = ptr("multicolor")
	}
	return c
}

// materialPropNames are property and option names that state a material.
var materialPropNames = set("material", "materials", "fabric", "composition", "matiere",
	"material composition", "main material", "upper material", "outer material", "shell",
	"fabric content", "materiau", "stoff", "tejido")

type materialHit struct {
	primary, label string
	percent        int
}

// material: candidates from material properties and options, the title, the description
// (care sentences excluded) and the tags, in that order. A composition with percentages
// picks the largest share; otherwise the first candidate wins. Negated mentions
// ("leather-free", "not leather") are skipped; faux/vegan/PU leather is "faux leather".
func (f *facts) material() *Material {
	var cands []materialHit
	for _, p := range f.props {
		if materialPropNames[strings.Join(words(p.Name), " ")] {
			if hs := materialHits(squash(p.Value)); len(hs) > 0 {
				for i := range hs {
					hs[i].label = squash(p.Value)
				}
				cands = append(cands, hs...)
			}
		}
	}
	order := []string{"options", "title", "description", "tags"}
	for _, src := range order {
		for _, fl := range f.fields {
			if fl.source != src {
				continue
			}
			if src == "options" {
				name, _, _ := strings.Cut(fl.text, ":")
				if !materialPropNames[strings.Join(words(name), " ")] {
					continue
				}
				_, vals, _ := strings.Cut(fl.text, ":")
				if strings.Contains(vals, ",") { // several materials to choose from
					continue
				}
			}
			cands = append(cands, materialHits(fl.text)...)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	best := cands[0]
	for _, c := range cands {
		if c.percent > best.percent {
			best = c
		}
	}
	return &Material{Primary: best.primary, MerchantLabel: best.label}
}

func materialHits(text string) []materialHit {
	toks := tokenize(text)
	var out []materialHit
	for _, h := range materials.find(toks) {
		if negated(toks, h.i, h.j) || negatedAfter(toks, h.j) {
			continue
		}
		primary, start := h.value, h.i
		if faux, ok := fauxOf[primary]; ok && h.i > 0 && !toks[h.i].breakBefore {
			prev := toks[h.i-1].word
			if fauxModifiers[prev] || (prev == "made" && h.i > 1 && toks[h.i-2].word == "man") {
				primary, start = faux, h.i-1
			}
		}
		pct := 0
		if start > 0 && !toks[start].breakBefore {
			if n, err := strconv.Atoi(toks[start-1].word); err == nil && n > 0 && n <= 100 && strings.HasPrefix(strings.TrimSpace(text[toks[start-1].end:toks[start].start]), "%") {
				pct, start = n, start-1
			}
		}
		end := h.j
		if pct == 0 && h.j < len(toks) && !toks[h.j].breakBefore {
			if n, err := strconv.Atoi(toks[h.j].word); err == nil && n > 0 && n <= 100 && strings.HasPrefix(text[toks[h.j].end:], "%") {
				pct, end = n, h.j+1
			}
		}
		label := quote(text, toks, start, end)
		if pct > 0 && end > h.j {
			label += "%"
		}
		out = append(out, materialHit{primary: primary, label: label, percent: pct})
	}
	return out
}

// genderAge: gender and age group from properties, title, product type, breadcrumbs,
// tags and a gender option (never from running text). Male and female evidence together,
// or an explicit "unisex", give "unisex". The age group is the first one found.
func (f *facts) genderAge() (gender, age *string) {
	var sawMale, sawFemale, sawUnisex bool
	for _, fl := range f.fields {
		if !fl.strong() {
			continue
		}
		if fl.source == "options" {
			name, _, _ := strings.Cut(fl.text, ":")
			if n := strings.Join(words(name), " "); n != "gender" && n != "sex" && n != "genre" && n != "geschlecht" {
				continue
			}
		}
		for _, h := range genders.find(fl.toks) {
			if negated(fl.toks, h.i, h.j) {
				continue
			}
			switch h.value {
			case "male":
				sawMale = true
			case "female":
				sawFemale = true
			case "unisex":
				sawUnisex = true
			}
		}
		if age != nil {
			continue
		}
		for _, h := range ageGroups.find(fl.toks) {
			if negated(fl.toks, h.i, h.j) || ageGuarded(fl.toks, h) {
				continue
			}
			age = ptr(h.value)
			break
		}
	}
	switch {
	case sawUnisex || (sawMale && sawFemale):
		gender = ptr("unisex")
	case sawMale:
		gender = ptr("male")
	case sawFemale:
		gender = ptr("female")
	}
	return gender, age
}

// ageGuarded rejects "baby blue", "baby shower", "kid leather" and the like.
func ageGuarded(toks []token, h hit) bool {
	if h.j >= len(toks) || toks[h.j].breakBefore {
		return false
	}
	next := toks[h.j].word
	switch toks[h.i].word {
	case "baby":
		return next == "shower" || len(colorFamilies.find(toks[h.j:h.j+1])) > 0
	case "kid":
		return next == "leather" || next == "suede" || next == "skin" || next == "gloves"
	}
	return false
}

// first returns the first non-negated match of v over the fields in priority order.
// propName, when set, makes properties of that name (pattern, closure) decisive.
func (f *facts) first(v *vocab, propName string, withDescription bool) *string {
	for _, p := range f.props {
		if strings.Contains(strings.Join(words(p.Name), " "), propName) {
			if hs := v.find(tokenize(p.Value)); len(hs) > 0 {
				return ptr(hs[0].value)
			}
		}
	}
	for _, fl := range f.fields {
		if fl.source == "description" && !withDescription {
			continue
		}
		for _, h := range v.find(fl.toks) {
			if !negated(fl.toks, h.i, h.j) {
				return ptr(h.value)
			}
		}
	}
	return nil
}

// list returns every non-negated match of v over all fields, in order of first
// appearance.
func (f *facts) list(v *vocab) []string {
	out := []string{}
	for _, fl := range f.fields {
		for _, h := range v.find(fl.toks) {
			if !negated(fl.toks, h.i, h.j) && !contains(out, h.value) {
				out = append(out, h.value)
			}
		}
	}
	return out
}

var fallGuards = set("protection", "arrest", "off", "down", "apart", "asleep", "prevention", "detection", "guard", "risk")

// seasons: the season vocabulary everywhere; "fall" alone only in short labels (tags,
// titles, product types, breadcrumbs, properties, options) and not as in "fall protection".
func (f *facts) seasons() []string {
	out := f.list(seasons)
	for _, fl := range f.fields {
		for _, h := range seasonFallPhrases.find(fl.toks) {
			if !negated(fl.toks, h.i, h.j) && !contains(out, h.value) {
				out = append(out, h.value)
			}
		}
		if !fl.strong() {
			continue
		}
		for k, t := range fl.toks {
			if t.word != "fall" || negated(fl.toks, k, k+1) {
				continue
			}
			if k+1 < len(fl.toks) && !fl.toks[k+1].breakBefore && fallGuards[fl.toks[k+1].word] {
				continue
			}
			if !contains(out, "autumn") {
				out = append(out, "autumn")
			}
		}
	}
	return out
}

// consumedProps are property names the dedicated rules already use.
func consumedProp(name string) bool {
	n := strings.Join(words(name), " ")
	return colorOptionNames[n] || materialPropNames[n] || strings.Contains(n, "pattern") ||
		strings.Contains(n, "closure") || n == "gender" || n == "suggestedgender" ||
		n == "suggested gender" || n == "age group" || n == "agegroup" || n == "suggestedage"
}

// additional: the page's other stated properties, verbatim, then the claims found in the
// text (a claim negated anywhere is dropped altogether). At most 30.
func (f *facts) additional() []AdditionalAttribute {
	out := []AdditionalAttribute{}
	seen := map[string]bool{}
	for _, p := range f.props {
		name, value := squash(p.Name), squash(p.Value)
		k := fold(name) + "\x00" + fold(value)
		if name == "" || value == "" || consumedProp(name) || seen[k] || len(out) == 30 {
			continue
		}
		seen[k] = true
		out = append(out, AdditionalAttribute{Name: name, Value: value})
	}
	denied := map[string]bool{}
	type claim struct{ name, value string }
	var found []claim
	for _, fl := range f.fields {
		for _, h := range claims.find(fl.toks) {
			if negated(fl.toks, h.i, h.j) {
				denied[h.value] = true
				continue
			}
			found = append(found, claim{h.value, quote(fl.text, fl.toks, h.i, h.j)})
		}
	}
	for _, c := range found {
		if denied[c.name] || seen[c.name] || len(out) == 30 {
			continue
		}
		seen[c.name] = true
		out = append(out, AdditionalAttribute{Name: c.name, Value: c.value})
	}
	return out
}

// closureApplies: closures are read only for apparel, shoes and bags, or when no category
// matched.
func (f *facts) closureApplies() bool {
	return f.categoryTop == "" || f.categoryTop == "Apparel & Accessories" || f.categoryTop == "Luggage & Bags"
}

func ptr[T any](v T) *T { return &v }

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
