package enrich

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/core/product"
)

// Category is a node of the embedded taxonomy.
type Category struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}

//go:embed taxonomy.tsv
var taxonomyTSV string

type node struct {
	Category
	depth int
	num   int // numeric id, for ordering
}

type taxonomy struct {
	nodes []node
	kw    *vocab           // keyword -> itself; nodes looked up in byKW
	byKW  map[string][]int // keyword (folded words joined by " ") -> node indexes
}

var tax = mustTaxonomy(taxonomyTSV)

// mustTaxonomy parses the embedded table; a malformed table is a build defect, caught by
// the package's tests.
func mustTaxonomy(src string) *taxonomy {
	t, err := parseTaxonomy(src)
	if err != nil {
		panic(err)
	}
	return t
}

func parseTaxonomy(src string) (*taxonomy, error) {
	t := &taxonomy{byKW: map[string][]int{}}
	phrases := map[string][]string{}
	for n, line := range strings.Split(src, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 {
			return nil, fmt.Errorf("taxonomy.tsv line %d: want id<TAB>path[<TAB>keywords]", n+1)
		}
		num, err := strconv.Atoi(cols[0])
		if err != nil {
			return nil, fmt.Errorf("taxonomy.tsv line %d: id %q: %w", n+1, cols[0], err)
		}
		nd := node{Category: Category{ID: cols[0], Path: cols[1]}, depth: strings.Count(cols[1], " > ") + 1, num: num}
		idx := len(t.nodes)
		t.nodes = append(t.nodes, nd)
		kws := []string{leaf(cols[1])}
		if len(cols) > 2 && strings.TrimSpace(cols[2]) != "" {
			kws = strings.Split(cols[2], ",")
		}
		for _, k := range kws {
			for _, form := range withPlural(k) {
				key := strings.Join(phrase(form), " ")
				if key == "" || containsInt(t.byKW[key], idx) {
					continue
				}
				t.byKW[key] = append(t.byKW[key], idx)
				phrases[key] = nil
			}
		}
	}
	t.kw = newVocab(phrases)
	return t, nil
}

// withPlural returns k and, when its last word looks singular, its regular plural.
func withPlural(k string) []string {
	k = strings.TrimSpace(k)
	if k == "" {
		return nil
	}
	last := k[strings.LastIndexAny(k, " -")+1:]
	switch {
	case strings.HasSuffix(last, "ss"):
		return []string{k, k + "es"}
	case strings.HasSuffix(last, "s"), last == "" || last[len(last)-1] < 'a' || last[len(last)-1] > 'z':
		return []string{k}
	case strings.HasSuffix(last, "x"), strings.HasSuffix(last, "ch"), strings.HasSuffix(last, "sh"):
		return []string{k, k + "es"}
	case strings.HasSuffix(last, "y") && len(last) > 1 && !strings.ContainsRune("aeiou", rune(last[len(last)-2])):
		return []string{k, k[:len(k)-1] + "ies"}
	}
	return []string{k, k + "s"}
}

func leaf(path string) string {
	if i := strings.LastIndex(path, " > "); i >= 0 {
		return path[i+len(" > "):]
	}
	return path
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// headWords cut a title or product type before its qualifiers ("Backpack with Laptop
// Sleeve" -> "Backpack").
var headStops = set("with", "for", "featuring", "including", "incl", "w", "plus", "and")

// Categorize maps the product to the most specific consistent node of the embedded
// taxonomy, or nil when no keyword matches. See RULES.md ("Category") for the rule.
func Categorize(p *product.Product) *Category {
	if p == nil {
		return nil
	}
	v := view(p)
	var anchor *node
	consider := func(c *node) {
		if c == nil {
			return
		}
		if anchor == nil || strings.HasPrefix(c.Path, anchor.Path+" > ") {
			anchor = c
		}
	}
	consider(tax.headCandidate(v.productType))
	for i := len(v.breadcrumbs) - 1; i >= 0; i-- {
		if c := tax.headCandidate(v.breadcrumbs[i]); c != nil {
			consider(c)
			break
		}
	}
	consider(tax.headCandidate(v.title))
	consider(tax.tagCandidate(v.tags))
	if anchor == nil {
		return nil
	}
	c := anchor.Category
	return &c
}

// headCandidate is the node named by a label's head: the rightmost keyword of the part
// before the first separator or qualifier, else the rightmost keyword of the whole label.
// A keyword naming several nodes gives the deepest (then the lowest id).
func (t *taxonomy) headCandidate(label string) *node {
	if label == "" {
		return nil
	}
	toks := tokenize(label)
	head := len(toks)
	for k := 1; k < len(toks); k++ {
		if toks[k].breakBefore && separatedBy(label, toks[k-1], toks[k]) || headStops[toks[k].word] {
			head = k
			break
		}
	}
	if c := t.rightmost(toks[:head]); c != nil {
		return c
	}
	return t.rightmost(toks)
}

// separatedBy reports whether the text between two tokens holds a title separator
// (" - ", " | ", " / ", ",", ":" or a dash), not just a hyphen inside a word.
func separatedBy(label string, a, b token) bool {
	gap := label[a.end:b.start]
	return strings.ContainsAny(gap, "|,:/–—(") || strings.Contains(gap, " - ")
}

func (t *taxonomy) rightmost(toks []token) *node {
	hits := t.kw.find(toks)
	if len(hits) == 0 {
		return nil
	}
	h := hits[len(hits)-1]
	return t.deepest(t.byKW[h.value])
}

func (t *taxonomy) deepest(idx []int) *node {
	var best *node
	for _, i := range idx {
		n := &t.nodes[i]
		if best == nil || n.depth > best.depth || n.depth == best.depth && n.num < best.num {
			best = n
		}
	}
	return best
}

// tagCandidate is the deepest node any tag names; ties go to the node more tags name,
// then to the lowest id.
func (t *taxonomy) tagCandidate(tags []string) *node {
	count := map[int]int{}
	for _, tag := range tags {
		seen := map[int]bool{}
		for _, h := range t.kw.find(tokenize(tag)) {
			for _, i := range t.byKW[h.value] {
				if !seen[i] {
					seen[i] = true
					count[i]++
				}
			}
		}
	}
	if len(count) == 0 {
		return nil
	}
	idx := make([]int, 0, len(count))
	for i := range count {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool {
		na, nb := &t.nodes[idx[a]], &t.nodes[idx[b]]
		if na.depth != nb.depth {
			return na.depth > nb.depth
		}
		if count[idx[a]] != count[idx[b]] {
			return count[idx[a]] > count[idx[b]]
		}
		return na.num < nb.num
	})
	return &t.nodes[idx[0]]
}
