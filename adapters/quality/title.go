package quality

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"
)

// A labelled title is usually the page's <title>: the product's name with other segments
// around it ("Bomber Jacket | Black | Women | H&M US"). TitleMatches judges a predicted
// title against it by words, in three steps:
//
//  1. The labelled title is split at separators standing between spaces (" | ", " - ",
//     " – ", " — ", " : ", " · ", " / "). A segment is the store's name when a run of its
//     words spells the site's name (SiteOf of the page address: "H&M US" on hm.com,
//     "Barnes & Noble®" on barnesandnoble.com, "Science Bob Store" on
//     sciencebobstore.com) and its other words are only words a store's name carries
//     ("the", "co", "store", "official", a country or domain ending: "Tiffany & Co.",
//     "The Home Depot", "Amazon.com"). Store-name segments are dropped; the first segment
//     left is the product's name, the segments left after it are its neighbours (colour,
//     department, format).
//  2. A prediction that itself holds a store-name segment is wrong (the whole <title> is
//     not the product's name), unless the product's name holds that segment's words too.
//  3. Otherwise it is right when at least titlePrecision of its distinct words occur in
//     the segments left (it says little besides the product: no menu, no banner, no
//     price, no store name) and it holds more than half of the distinct words of the
//     product's name, or titleEnoughWords of them: a labelled name often runs on into
//     a description (author, format, material) that a right title leaves out, while a
//     fragment ("Poncho" for "Wanderlust Festival Poncho"), a neighbouring segment or an
//     item number is wrong.
//
// Words are runs of letters and digits, compared in lower case; "&" counts both as "and"
// and as nothing when spelling a store's name ("Barnes & Noble", "H&M").
const (
	titlePrecision   = 0.75
	titleEnoughWords = 3
)

// titleSeparator splits a title into segments: a dash, bar, colon, dot or slash standing
// between spaces. A hyphen inside a word ("Self-Siphoning", "7-Piece") stays.
var titleSeparator = regexp.MustCompile(`\s+[-|–—:·/]+\s+`)

// storeNameWords are the words a store's name carries besides the site's own name.
var storeNameWords = map[string]bool{
	"the": true, "and": true, "co": true, "company": true, "inc": true, "llc": true, "ltd": true,
	"store": true, "shop": true, "official": true, "online": true, "www": true,
	"us": true, "usa": true, "uk": true,
}

// TitleMatches reports whether predicted is a right product title for the page at pageURL
// whose title a person labelled as labelled (see the rule above).
func TitleMatches(predicted, labelled, pageURL string) bool {
	store := storeOf(pageURL)
	pred := titleWords(predicted)
	if len(pred) == 0 {
		return false
	}
	name, rest := store.productName(labelled)
	nameWords, restWords := titleWords(name), titleWords(rest)
	for _, seg := range titleSeparator.Split(predicted, -1) {
		if words := titleWords(seg); store.named(seg) && shared(words, nameWords) < len(words) {
			return false
		}
	}
	if float64(shared(pred, restWords)) < titlePrecision*float64(len(pred)) {
		return false
	}
	named := shared(nameWords, pred)
	return named >= titleEnoughWords || 2*named > len(nameWords)
}

// shared counts the words of a that b holds.
func shared(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// store is what a page address says about its store's name.
type store struct {
	name string
	// extra are the words its name may carry besides name: storeNameWords and the labels
	// of the domain's public suffix ("com", "fr").
	extra map[string]bool
}

func storeOf(pageURL string) store {
	s := store{name: SiteOf(pageURL), extra: map[string]bool{}}
	for w := range storeNameWords {
		s.extra[w] = true
	}
	if u, err := url.Parse(pageURL); err == nil {
		suffix, _ := publicsuffix.PublicSuffix(strings.ToLower(u.Hostname()))
		for _, w := range strings.Split(suffix, ".") {
			s.extra[w] = true
		}
	}
	return s
}

// productName splits a labelled title into the product's name (the first segment that is
// not the store's name) and every segment that is not the store's name, name included.
// A title that is nothing but the store's name is taken whole.
func (s store) productName(labelled string) (name, rest string) {
	var kept []string
	for _, seg := range titleSeparator.Split(labelled, -1) {
		if !s.named(seg) {
			kept = append(kept, seg)
		}
	}
	if len(kept) == 0 {
		return labelled, labelled
	}
	return kept[0], strings.Join(kept, " ")
}

// named reports whether segment is the store's name: a run of its words spells the site's
// name and its other words are ones a store's name carries.
func (s store) named(segment string) bool {
	if s.name == "" {
		return false
	}
	tokens := titleTokens(segment)
	for _, and := range []string{"and", ""} {
		var words []string
		for _, t := range tokens {
			if t == "&" {
				t = and
			}
			if t != "" {
				words = append(words, t)
			}
		}
		if s.spelledIn(words) {
			return true
		}
	}
	return false
}

// spelledIn reports whether a run of words spells the store's name with only store-name
// words around it.
func (s store) spelledIn(words []string) bool {
	for i := range words {
		spelled := ""
		for j := i; j < len(words) && len(spelled) < len(s.name); j++ {
			spelled += words[j]
			if spelled == s.name && s.onlyExtra(words[:i]) && s.onlyExtra(words[j+1:]) {
				return true
			}
		}
	}
	return false
}

func (s store) onlyExtra(words []string) bool {
	for _, w := range words {
		if !s.extra[w] {
			return false
		}
	}
	return true
}

// titleTokens splits text into lower-case runs of letters and digits, with each "&" a
// token of its own.
func titleTokens(text string) []string {
	var tokens []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			tokens = append(tokens, word.String())
			word.Reset()
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word.WriteRune(r)
		case r == '&':
			flush()
			tokens = append(tokens, "&")
		default:
			flush()
		}
	}
	flush()
	return tokens
}

// titleWords is the set of words of text, "&" left out.
func titleWords(text string) map[string]bool {
	words := map[string]bool{}
	for _, t := range titleTokens(text) {
		if t != "&" {
			words[t] = true
		}
	}
	return words
}
