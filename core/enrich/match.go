package enrich

import "sort"

// vocab maps phrases to canonical values. Phrases are matched on whole folded words, the
// longest phrase first at each position, so "stainless steel" wins over "steel" and
// "women" can never match "men".
type vocab struct {
	byFirst map[string][]entry
}

type entry struct {
	words []string
	value string
}

// newVocab builds a vocabulary from canonical value -> phrases. Every canonical value also
// matches itself.
func newVocab(m map[string][]string) *vocab {
	v := &vocab{byFirst: map[string][]entry{}}
	add := func(p, value string) {
		w := phrase(p)
		if len(w) == 0 {
			return
		}
		v.byFirst[w[0]] = append(v.byFirst[w[0]], entry{words: w, value: value})
	}
	for value, phrases := range m {
		add(value, value)
		for _, p := range phrases {
			add(p, value)
		}
	}
	for k, es := range v.byFirst {
		sort.SliceStable(es, func(i, j int) bool {
			if len(es[i].words) != len(es[j].words) {
				return len(es[i].words) > len(es[j].words)
			}
			return es[i].value < es[j].value
		})
		v.byFirst[k] = es
	}
	return v
}

// hit is one vocabulary match: the canonical value and the token span [i, j).
type hit struct {
	value string
	i, j  int
}

// find returns the non-overlapping matches in toks, left to right.
func (v *vocab) find(toks []token) []hit {
	var out []hit
	for i := 0; i < len(toks); {
		matched := false
		for _, e := range v.byFirst[toks[i].word] {
			if spans(toks, i, e.words) {
				out = append(out, hit{value: e.value, i: i, j: i + len(e.words)})
				i += len(e.words)
				matched = true
				break
			}
		}
		if !matched {
			i++
		}
	}
	return out
}

// spans reports whether words occur at toks[i:] without a clause break inside.
func spans(toks []token, i int, words []string) bool {
	if i+len(words) > len(toks) {
		return false
	}
	for k, w := range words {
		if toks[i+k].word != w || (k > 0 && toks[i+k].breakBefore) {
			return false
		}
	}
	return true
}

// Negation. A match is negated when, within its clause, a negator stands right before it
// or before it with only filler words in between ("not waterproof", "is not made of
// leather", "without any plastic"), or when a word like "free" or "look" follows it
// ("leather-free", "leather-look").
var (
	negators = set("no", "not", "non", "without", "never", "nor", "free", "isn", "aren",
		"doesn", "don", "wasn", "won", "cannot", "zero", "sans", "ohne", "sin", "kein", "keine")
	negFillers = set("is", "are", "was", "be", "been", "made", "of", "from", "with", "fully",
		"completely", "entirely", "totally", "100", "real", "genuine", "actual", "any", "a",
		"an", "the", "t", "use", "uses", "contain", "contains", "containing", "using", "s",
		"really", "truly", "100%")
	negAfter = set("free", "alternative", "look", "effect", "like", "substitute", "imitation",
		"lookalike", "style", "print", "printed", "pattern", "colored", "coloured", "color",
		"colour", "tone", "toned", "finish")
)

// negated reports whether the match toks[i:j] is negated.
func negated(toks []token, i, j int) bool {
	for k, n := i-1, 0; k >= 0 && n < 4; k, n = k-1, n+1 {
		if toks[k+1].breakBefore {
			break
		}
		if negators[toks[k].word] {
			return true
		}
		if !negFillers[toks[k].word] {
			break
		}
	}
	return false
}

// negatedAfter reports whether the match toks[i:j] is followed by a word that turns it
// into a claim of absence or of resemblance ("leather-free", "leather-look").
func negatedAfter(toks []token, j int) bool {
	return j < len(toks) && !toks[j].breakBefore && negAfter[toks[j].word]
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// quote returns the original text of the token span toks[i:j] of text.
func quote(text string, toks []token, i, j int) string {
	return text[toks[i].start:toks[j-1].end]
}
