package search

import (
	"strings"

	"github.com/stockroom/stockroom/core/enrich"
)

// words folds and splits text the way enrichment does ("Women's T-Shirt" -> women t shirt).
func words(text string) []string { return enrich.Words(text) }

// stem reduces a folded word to a crude singular so that "boots" meets "boot" and "dresses"
// meets "dress". It is applied to both sides of every comparison, so its only duty is to be
// consistent; Postgres does the real (Snowball) stemming for retrieval.
func stem(w string) string {
	n := len(w)
	switch {
	case n <= 3:
		return w
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}

// stems folds, splits and stems text.
func stems(text string) []string {
	ws := words(text)
	for i, w := range ws {
		ws[i] = stem(w)
	}
	return ws
}

// phraseStems turns a vocabulary phrase into its stemmed words.
func phraseStems(p string) []string { return stems(p) }

// containsPhrase reports whether the stemmed words p occur contiguously in toks.
func containsPhrase(toks, p []string) bool {
	if len(p) == 0 || len(p) > len(toks) {
		return false
	}
outer:
	for i := 0; i+len(p) <= len(toks); i++ {
		for k, w := range p {
			if toks[i+k] != w {
				continue outer
			}
		}
		return true
	}
	return false
}

// editDistance is the optimal-string-alignment distance: insertions, deletions,
// substitutions and transpositions of adjacent letters each cost one, so "hoodei" is one
// slip away from "hoodie". It gives up (returns limit+1) once the distance exceeds limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// synonymGroups are product words that name the same thing; the first of each group is
// its canonical form. A query word of a group searches for every member.
var synonymGroups = [][]string{
	{"sneaker", "trainer", "tennis shoe", "kick"},
	{"t shirt", "tee", "tshirt", "tee shirt"},
	{"hoodie", "hoody", "hooded sweatshirt"},
	{"sweater", "jumper", "pullover"},
	{"pant", "trouser", "slack"},
	{"jogger", "sweatpant", "track pant"},
	{"sofa", "couch", "settee"},
	{"backpack", "rucksack", "knapsack", "daypack"},
	{"headphone", "headset"},
	{"earbud", "earphone", "in ear headphone"},
	{"power bank", "portable charger", "battery pack"},
	{"moisturizer", "moisturiser", "face cream"},
	{"sunscreen", "sunblock", "sun cream"},
	{"cleanser", "face wash"},
	{"throw blanket", "throw"},
	{"rain shell", "rain jacket", "raincoat", "rain coat"},
	{"headlamp", "head torch"},
	{"jigsaw puzzle", "jigsaw"},
	{"plush", "stuffed animal", "soft toy", "teddy"},
	{"mug", "cup"},
	{"flask", "thermos", "vacuum bottle"},
	{"tumbler", "travel mug"},
	{"high top", "hi top"},
	{"trail runner", "trail running shoe"},
	{"running shoe", "runner", "running sneaker"},
	{"cardigan", "cardi"},
	{"duvet cover", "comforter cover", "quilt cover"},
	{"lip balm", "chapstick", "lip salve"},
	{"smart watch", "smartwatch"},
	{"bluetooth speaker", "wireless speaker", "portable speaker"},
	{"usb c charger", "usb charger", "wall charger"},
	{"sandal", "slide"},
	{"loafer", "moccasin"},
	{"dress", "frock"},
}

// synonym is a parsed synonym group: each phrase as stemmed words.
type synonym struct {
	canonical string
	phrases   [][]string
}

func buildSynonyms() map[string]*synonym {
	out := map[string]*synonym{}
	for _, g := range synonymGroups {
		s := &synonym{canonical: strings.Join(phraseStems(g[0]), " ")}
		for _, p := range g {
			st := phraseStems(p)
			s.phrases = append(s.phrases, st)
			out[strings.Join(st, " ")] = s
		}
	}
	return out
}
