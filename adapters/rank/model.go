package rank

import (
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Model holds a weight per feature for each field. A candidate's score is the dot product
// of its features and its field's weights; "no value" scores 0.
type Model struct {
	Weights [numFields]Vector
}

//go:embed weights.txt
var weightsFile []byte

var (
	defaultOnce  sync.Once
	defaultModel *Model
	defaultErr   error
)

// Default returns the model of weights.txt, which `make train` writes. It panics if the
// embedded file does not parse: a build with a broken model must not ship.
func Default() *Model {
	defaultOnce.Do(func() { defaultModel, defaultErr = ParseModel(weightsFile) })
	if defaultErr != nil {
		panic(fmt.Sprintf("rank: embedded weights.txt: %v", defaultErr))
	}
	return defaultModel
}

// weightsHeader opens a weights file. The file is plain text, a weight a line ("price
// from_jsonld 1.683"), rather than JSON, so that a guest needs no JSON decoder to read it.
const weightsHeader = "# Weights of the candidate ranker (adapters/rank), written by `make train`; do not edit by hand.\n" +
	"# field feature weight; a feature left out weighs 0.\n"

// ParseModel reads a weights file: lines of a field, a feature and a weight; blank lines
// and lines starting with # are left out.
func ParseModel(b []byte) (*Model, error) {
	m := &Model{}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Fields(line)
		if len(parts) != 3 {
			return nil, fmt.Errorf("line %d: want a field, a feature and a weight, got %q", n+1, line)
		}
		field, ok := ParseField(parts[0])
		if !ok {
			return nil, fmt.Errorf("line %d: unknown field %q", n+1, parts[0])
		}
		feat, ok := ParseFeature(parts[1])
		if !ok {
			return nil, fmt.Errorf("line %d: unknown feature %q", n+1, parts[1])
		}
		w, err := strconv.ParseFloat(parts[2], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		m.Weights[field][feat] = w
	}
	return m, nil
}

// MarshalText writes m as a weights file: fields and features in their declared order,
// weights rounded to four decimals, zero weights left out, so that the same model always
// writes the same bytes.
func (m *Model) MarshalText() ([]byte, error) {
	var b strings.Builder
	b.WriteString(weightsHeader)
	for _, field := range Fields {
		for feat, w := range m.Weights[field] {
			if r := math.Round(w*1e4) / 1e4; r != 0 {
				fmt.Fprintf(&b, "%s %s %s\n", field, Feature(feat), strconv.FormatFloat(r, 'f', -1, 64))
			}
		}
	}
	return []byte(b.String()), nil
}

// score is the model's score of features v for field f.
func (m *Model) score(f Field, v *Vector) float64 {
	s := 0.0
	for i, x := range v {
		if x != 0 {
			s += x * m.Weights[f][i]
		}
	}
	return s
}

// Decision is a page's candidates ranked: each field's chosen candidate, if any.
type Decision struct {
	Page *Page
	// chosen is the index of each field's chosen candidate, -1 for none.
	chosen [numFields]int
	// none is each field's probability that the page has no right candidate.
	none [numFields]float64
}

// Rank scores every competing candidate of p and chooses each field's value: the value
// whose candidates together are likelier than every other value and than "none".
func (m *Model) Rank(p *Page) *Decision {
	d := &Decision{Page: p}
	for _, f := range Fields {
		d.chosen[f], d.none[f] = m.choose(f, p.Candidates[f])
	}
	return d
}

// choose scores cands and returns the chosen one's index (-1: none) and the probability
// of "none". Scores become probabilities by a softmax in which "none" scores 0.
func (m *Model) choose(f Field, cands []Candidate) (int, float64) {
	maxScore := 0.0
	scores := make([]float64, len(cands))
	for i := range cands {
		if cands[i].Competes() {
			scores[i] = m.score(f, &cands[i].Features)
			maxScore = math.Max(maxScore, scores[i])
		}
	}
	total := math.Exp(-maxScore) // "none"
	for i := range cands {
		if cands[i].Competes() {
			total += math.Exp(scores[i] - maxScore)
		}
	}
	mass := map[string]float64{}
	for i := range cands {
		c := &cands[i]
		c.Score = 0
		if c.Competes() {
			c.Score = math.Exp(scores[i]-maxScore) / total
			mass[c.Value] += c.Score
		}
	}
	none := math.Exp(-maxScore) / total
	best := -1
	for i := range cands {
		c := &cands[i]
		if !c.Competes() {
			continue
		}
		if best < 0 || mass[c.Value] > mass[cands[best].Value] || mass[c.Value] == mass[cands[best].Value] && c.Score > cands[best].Score {
			best = i
		}
	}
	if best >= 0 && mass[cands[best].Value] <= none {
		best = -1
	}
	return best, none
}

// Best returns field f's chosen candidate.
func (d *Decision) Best(f Field) (*Candidate, bool) {
	if i := d.chosen[f]; i >= 0 {
		return &d.Page.Candidates[f][i], true
	}
	return nil, false
}

// Confidence is the probability mass of field f's chosen value.
func (d *Decision) Confidence(f Field) float64 {
	best, ok := d.Best(f)
	if !ok {
		return 0
	}
	total := 0.0
	for _, c := range d.Page.Candidates[f] {
		if c.Value == best.Value {
			total += c.Score
		}
	}
	return total
}

// CompareAt returns the former or reference price shown for the product: the one nearest
// the heading (structured data's first) among those above the chosen price.
func (d *Decision) CompareAt() (float64, bool) {
	price, ok := d.Best(Price)
	if !ok {
		return 0, false
	}
	best, bestNear := 0.0, -1.0
	for _, c := range d.Page.CompareAt {
		if c.Amount <= price.Amount || c.el != nil && (c.el.other || c.el.hidden || c.el.chrome) {
			continue
		}
		near := 2.0
		if c.el != nil {
			near = nearness(c.el.headingLevel)
			if near == 0 {
				continue
			}
		}
		if near > bestNear {
			best, bestNear = c.Amount, near
		}
	}
	return best, bestNear >= 0
}

// Decide gathers the candidates of the page of c and ranks them with the default model;
// nil when c has no page.
func Decide(c *sdk.Call) *Decision {
	p := Gather(c)
	if p == nil {
		return nil
	}
	return Default().Rank(p)
}

// Ranked returns field f's competing candidates, best first, and then those ruled out.
func (d *Decision) Ranked(f Field) []Candidate {
	out := append([]Candidate(nil), d.Page.Candidates[f]...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Competes() != out[j].Competes() {
			return out[i].Competes()
		}
		return out[i].Score > out[j].Score
	})
	return out
}
