package rank

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stockroom/stockroom/adapters/sdk"
)

func TestTokensSplitClassesIntoWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"product-price__Current", []string{"product", "price", "current"}},
		{"oldPrice priceWas", []string{"old", "price", "price", "was"}},
		{"a-size-medium a-color-price", []string{"a", "size", "medium", "a", "color", "price"}},
		{"", nil},
	} {
		if got := tokens(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestClassWordsMatchWholeWordsOrJoinedToPrice(t *testing.T) {
	for _, tc := range []struct {
		class      string
		vocabulary classVocabulary
		want       bool
	}{
		{"price--old", struckVocabulary, true},
		{"oldprice", struckVocabulary, true},
		{"font-bold", struckVocabulary, false},
		{"placeholder", struckVocabulary, false},
		{"related-products", otherProductVocabulary, true},
		{"product-info", otherProductVocabulary, false},
		{"col-right no-slider", sliderVocabulary, false},
		{"product-slider", sliderVocabulary, true},
		{"without-sidebar", chromeVocabulary, false},
		{"slick-track", otherProductVocabulary, true},
	} {
		if got := vocabularyHits(tokens(tc.class))&tc.vocabulary != 0; got != tc.want {
			t.Errorf("vocabularyHits(%q) holds %b: %v, want %v", tc.class, tc.vocabulary, got, tc.want)
		}
	}
	for _, tc := range []struct {
		class string
		want  bool
	}{
		{"list-price", true},
		{"regularPrice", true},
		{"font-regular", false},
		{"list-unstyled", false},
		{"full-width", false},
		{"price-standard pdp-space-price", true},
		{"price-sales pdp-space-price", false},
		{"price-full", false},
		{"price-list", false},
	} {
		if got := vocabularyHits(tokens(tc.class))&struckQualifierVocabulary != 0; got != tc.want {
			t.Errorf("vocabularyHits(%q) holds a struck qualifier: %v, want %v", tc.class, got, tc.want)
		}
	}
}

func TestAmountsInCountsSeparateAmounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"19,99 €", 1}, {"1 299,00 €", 1}, {"$19.99 $29.99", 2}, {"2 x 19.99", 2}, {"€ / kg", 0}, {"Save 20%", 1},
		{"881,00 169,00 Kn", 2}, {"1.299,00 999,00 €", 2}, {"1 299 000 ₫", 1},
	} {
		if got := amountsIn(tc.in); got != tc.want {
			t.Errorf("amountsIn(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestSplitCentsReadsSuperscriptCents(t *testing.T) {
	for _, tc := range []struct {
		pieces []string
		want   float64
		ok     bool
	}{
		{[]string{"63", "07", " Lei"}, 63.07, true},
		{[]string{"$", "229", "99"}, 229.99, true},
		{[]string{"1299"}, 0, false},
		{[]string{"12", "345"}, 0, false},
	} {
		got, ok := splitCents(tc.pieces)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("splitCents(%q) = %v, %v; want %v, %v", tc.pieces, got, ok, tc.want, tc.ok)
		}
	}
}

func TestShownCurrencyIsTheExpectedOneWhenItsSignSaysSo(t *testing.T) {
	for _, tc := range []struct {
		text, hint, want string
		marked           bool
	}{
		{"19,99 €", "", "EUR", true},
		{"$19.99", "USD", "USD", true},
		{"$19.99", "CAD", "CAD", true},
		{"$19.99", "MXN", "MXN", true},
		{"$19.99", "", "USD", true},
		{"199 kr", "NOK", "NOK", true},
		{"199 kr", "SEK", "SEK", true},
		{"R$ 99,90", "", "BRL", true},
		{"NT$2,320", "", "TWD", true},
		{"₩30,000", "", "KRW", true},
		{"¥1,280", "JPY", "JPY", true},
		{"29.990 CLP", "", "CLP", true},
		{"19,99", "EUR", "", false},
		{"(3592 Reviews)", "USD", "", false},
	} {
		_, got, marked, _ := shownAmount(tc.text, tc.hint)
		if got != tc.want || marked != tc.marked {
			t.Errorf("shownAmount(%q, hint %q) currency = %q, marked %v; want %q, %v", tc.text, tc.hint, got, marked, tc.want, tc.marked)
		}
	}
}

func TestMarkupCurrenciesAreReadAsCodes(t *testing.T) {
	r := &reader{locale: sdk.ParseLocale("en-CA")}
	for in, want := range map[string]string{"rur": "RUB", "eur": "EUR", " USD ": "USD", "XYZ": "", "$": "CAD"} {
		if got := r.markupCode(in); got != want {
			t.Errorf("markupCode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBigFontSize(t *testing.T) {
	for style, want := range map[string]bool{"font-size:24px": true, "font-size: 1.5em": true, "font-size:12px": false, "color:red": false} {
		if got := bigFontSize(style); got != want {
			t.Errorf("bigFontSize(%q) = %v, want %v", style, got, want)
		}
	}
}

func TestModelFileRoundTrips(t *testing.T) {
	var m Model
	m.Weights[Price][FromJSONLD] = 1.23456
	m.Weights[Title][Banner] = -2
	b, err := m.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Weights[Price][FromJSONLD] != 1.2346 || back.Weights[Title][Banner] != -2 {
		t.Errorf("weights read back as %v", back.Weights)
	}
	if _, err := ParseModel([]byte("price no_such_feature 1\n")); err == nil {
		t.Error("an unknown feature was accepted")
	}
}

func TestFitPrefersTheRightCandidateDeterministically(t *testing.T) {
	// Two features: the right candidate always has the first, a wrong one the second.
	var right, wrong Vector
	right[Bias], right[FromJSONLD] = 1, 1
	wrong[Bias], wrong[InOther] = 1, 1
	examples := []Example{
		{Features: []Vector{right, wrong}, Right: []bool{true, false}},
		{Features: []Vector{wrong, right}, Right: []bool{false, true}},
		{Features: []Vector{wrong}, Right: []bool{false}},
	}
	w := Fit(examples, FitOptions{Iterations: 500})
	if w[FromJSONLD] <= w[InOther] {
		t.Errorf("weights %v do not prefer the right candidates' feature", w)
	}
	if again := Fit(examples, FitOptions{Iterations: 500}); again != w {
		t.Error("the same examples fitted different weights")
	}
}

// TestVocabularyHitsMatchWordByWord compares vocabularyHits with reading each vocabulary
// word by word, on classes made of every vocabulary word alone, joined to each price word,
// next to it, after it, after a negation, and inside longer words.
func TestVocabularyHitsMatchWordByWord(t *testing.T) {
	vocabularies := map[classVocabulary][]string{
		struckVocabulary: struckWords, otherProductVocabulary: otherProductWords, sliderVocabulary: sliderWords, chromeVocabulary: chromeWords,
		frameVocabulary: frameWords, cartVocabulary: cartWords, hiddenVocabulary: hiddenWords,
		productVocabulary: productWords, emphasisVocabulary: emphasisWords, otherPriceVocabulary: otherPriceWords,
		priceClassVocabulary: priceClassWords,
	}
	var classes []string
	for _, words := range append(slices.Collect(maps.Values(vocabularies)), struckQualifiers, trailingQualifiers) {
		for _, w := range words {
			classes = append(classes, w, "x"+w, w+"x", w+"-box", "box-"+w, "no-"+w, "without-"+w+"-price")
			for _, p := range priceSuffixes {
				classes = append(classes, w+p, p+w, w+"-"+p, p+"-"+w, w+"_"+p+"-x", "x"+w+p)
			}
		}
	}
	for _, class := range classes {
		toks := tokens(class)
		hits := vocabularyHits(toks)
		for v, words := range vocabularies {
			if got, want := hits&v != 0, wordByWord(toks, words); got != want {
				t.Errorf("vocabularyHits(%q) holds %b: %v, word by word %v", class, v, got, want)
			}
		}
		if got, want := hits&struckQualifierVocabulary != 0, qualifiedWordByWord(toks, struckQualifiers); got != want {
			t.Errorf("vocabularyHits(%q) holds a struck qualifier: %v, word by word %v", class, got, want)
		}
	}
}

// wordByWord reports whether one of toks not after a negation is one of words, alone or
// joined to a price word.
func wordByWord(toks []string, words []string) bool {
	for i, t := range toks {
		if i > 0 && slices.Contains(negations, toks[i-1]) {
			continue
		}
		for _, w := range words {
			if t == w || joinedToPrice(t, w) {
				return true
			}
		}
	}
	return false
}

// qualifiedWordByWord reports whether one of words qualifies a price word in toks, joined
// or as the next word, or one of trailingQualifiers follows a price word.
func qualifiedWordByWord(toks []string, words []string) bool {
	for i, t := range toks {
		for _, w := range words {
			if joinedToPrice(t, w) || t == w && i+1 < len(toks) && isPriceSuffix(toks[i+1]) {
				return true
			}
		}
		if i > 0 && isPriceSuffix(toks[i-1]) && slices.Contains(trailingQualifiers, t) {
			return true
		}
	}
	return false
}

func joinedToPrice(t, w string) bool {
	return len(t) > len(w) && (strings.HasPrefix(t, w) && isPriceSuffix(t[len(w):]) || strings.HasSuffix(t, w) && isPriceSuffix(t[:len(t)-len(w)]))
}

// TestWordsLowerCaseEachWord pins down the words of ASCII texts, which are lower-cased
// whole, and of other texts, lower-cased word by word.
func TestWordsLowerCaseEachWord(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Trail Lamp 400 - SHOP", []string{"trail", "lamp", "400", "shop"}},
		{"  H&M  ", []string{"h", "m"}},
		{"Çay ÖZEL, 2 KG", []string{"çay", "özel", "2", "kg"}},
		{"", nil},
	} {
		if got := words(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestLetterClassesAgreeWithUnicode pins the ASCII shortcuts of the class-word splitter to
// the unicode package, over ASCII and the Latin-1 letters after it.
func TestLetterClassesAgreeWithUnicode(t *testing.T) {
	for r := rune(0); r < 0x250; r++ {
		if got, want := isLetterOrDigit(r), unicode.IsLetter(r) || unicode.IsDigit(r); got != want {
			t.Errorf("isLetterOrDigit(%q) = %v, want %v", r, got, want)
		}
		if got, want := isUpper(r), unicode.IsUpper(r); got != want {
			t.Errorf("isUpper(%q) = %v, want %v", r, got, want)
		}
		if got, want := isLower(r), unicode.IsLower(r); got != want {
			t.Errorf("isLower(%q) = %v, want %v", r, got, want)
		}
	}
}
