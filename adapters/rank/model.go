package rank

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Model holds a weight per feature for each field. A candidate's score is the dot product
// of its features and its field's weights; "no value" scores 0.
type Model struct {
	Weights [numFields]Vector
}

//go:embed weights.json
var weightsFile []byte

var (
	defaultOnce  sync.Once
	defaultModel *Model
	defaultErr   error
)

// Default returns the model of weights.json, which `make train` writes. It panics if the
// embedded file does not parse: a build with a broken model must not ship.
func Default() *Model {
	defaultOnce.Do(func() { defaultModel, defaultErr = ParseModel(weightsFile) })
	if defaultErr != nil {
		panic(fmt.Sprintf("rank: embedded weights.json: %v", defaultErr))
	}
	return defaultModel
}

// modelFile is weights.json: per field, per feature name, a weight. Features left out
// weigh 0.
type modelFile struct {
	About  string                        `json:"about"`
	Fields map[string]map[string]float64 `json:"fields"`
}

// ParseModel reads a weights file.
func ParseModel(b []byte) (*Model, error) {
	var f modelFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	m := &Model{}
	for name, weights := range f.Fields {
		field, ok := ParseField(name)
		if !ok {
			return nil, fmt.Errorf("unknown field %q", name)
		}
		for fname, w := range weights {
			feat, ok := ParseFeature(fname)
			if !ok {
				return nil, fmt.Errorf("field %s: unknown feature %q", name, fname)
			}
			m.Weights[field][feat] = w
		}
	}
	return m, nil
}

// MarshalJSON writes m as a weights file: weights rounded to four decimals, zero weights
// left out, keys sorted, so that the same model always writes the same bytes.
func (m *Model) MarshalJSON() ([]byte, error) {
	f := modelFile{
		About:  "Weights of the candidate ranker (adapters/rank), written by `make train`; do not edit by hand.",
		Fields: map[string]map[string]float64{},
	}
	for _, field := range Fields {
		weights := map[string]float64{}
		for feat, w := range m.Weights[field] {
			if r := math.Round(w*1e4) / 1e4; r != 0 {
				weights[Feature(feat).String()] = r
			}
		}
		f.Fields[field.String()] = weights
	}
	return json.MarshalIndent(f, "", "  ")
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
