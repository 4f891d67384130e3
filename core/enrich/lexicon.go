package enrich

import (
	"sort"
	"strings"
)

// Lexicon is one of the enrichment vocabularies as data: each canonical value with the
// phrases that express it (folded words joined by one space, the value itself included).
// Other packages read product text with the same words enrichment uses; search, for one,
// understands "navy" and "bleu marine" as the color family blue.
type Lexicon map[string][]string

// The names Lexicons accepts.
const (
	LexiconColor    = "color"
	LexiconMaterial = "material"
	LexiconPattern  = "pattern"
	LexiconStyle    = "style"
	LexiconOccasion = "occasion"
	LexiconClaim    = "claim"
	LexiconGender   = "gender"
	LexiconAgeGroup = "age_group"
	LexiconSeason   = "season"
	LexiconClosure  = "closure"
	LexiconCategory = "category" // taxonomy keywords, each its own canonical value
)

// Lexicons returns a fresh copy of the named vocabulary, or nil for an unknown name.
func Lexicons(name string) Lexicon {
	var v *vocab
	switch name {
	case LexiconColor:
		v = colorFamilies
	case LexiconMaterial:
		v = materials
	case LexiconPattern:
		v = patterns
	case LexiconStyle:
		v = styles
	case LexiconOccasion:
		v = occasions
	case LexiconClaim:
		v = claims
	case LexiconGender:
		v = genders
	case LexiconAgeGroup:
		v = ageGroups
	case LexiconSeason:
		v = seasons
	case LexiconClosure:
		v = closures
	case LexiconCategory:
		v = tax.kw
	default:
		return nil
	}
	out := Lexicon{}
	for _, es := range v.byFirst {
		for _, e := range es {
			out[e.value] = append(out[e.value], strings.Join(e.words, " "))
		}
	}
	for k := range out {
		sort.Strings(out[k])
	}
	return out
}

// Words folds text (lower case, Latin accents stripped, possessive 's dropped) and splits
// it into words exactly as the vocabularies are matched.
func Words(text string) []string { return words(text) }
