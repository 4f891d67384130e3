package rank

import "math"

// Example is one page's competing candidates for a field, for fitting: their features
// and which of them hold the right value. When none does, "none" is the right answer:
// the model learns to leave the field unknown rather than guess wrong.
type Example struct {
	Features []Vector
	Right    []bool
}

// FitOptions tune Fit. The zero value means the defaults below.
type FitOptions struct {
	// Iterations of gradient ascent; 0 means 3000.
	Iterations int
	// Step is the gradient step; 0 means 1.
	Step float64
	// L2 is the weight of the penalty on weights away from Prior; 0 means 0.005. It keeps
	// the weights of features seen on few pages near their prior.
	L2 float64
	// Prior is where the weights start and what the penalty pulls them towards (see
	// Priors); the zero Vector pulls towards 0.
	Prior Vector
}

// Fit learns one field's weights from examples by maximising the likelihood of the
// right candidates (a softmax over each page's candidates and "none", in which "none"
// scores 0) less an L2 penalty, by full-batch gradient ascent: no randomness, a fixed
// number of steps, the examples in the order given, so the same examples always give
// the same weights.
func Fit(examples []Example, opt FitOptions) Vector {
	if opt.Iterations == 0 {
		opt.Iterations = 3000
	}
	if opt.Step == 0 {
		opt.Step = 1
	}
	if opt.L2 == 0 {
		opt.L2 = 0.005
	}
	w := opt.Prior
	if len(examples) == 0 {
		return w
	}
	// Candidates as their features that are not 0, which are few.
	type term struct {
		f int
		x float64
	}
	type candidate struct {
		terms []term
		right bool
	}
	pages := make([][]candidate, len(examples))
	var active [numFeatures]bool
	for i, e := range examples {
		for j := range e.Features {
			c := candidate{right: e.Right[j]}
			for f, x := range e.Features[j] {
				if x != 0 {
					c.terms = append(c.terms, term{f, x})
					active[f] = true
				}
			}
			pages[i] = append(pages[i], c)
		}
	}
	n := float64(len(examples))
	var scores []float64
	for it := 0; it < opt.Iterations; it++ {
		var grad Vector
		for _, cands := range pages {
			scores = scores[:0]
			top := 0.0
			for _, c := range cands {
				s := 0.0
				for _, t := range c.terms {
					s += w[t.f] * t.x
				}
				scores = append(scores, s)
				top = math.Max(top, s)
			}
			total, right := math.Exp(-top), 0.0
			for i, s := range scores {
				scores[i] = math.Exp(s - top)
				total += scores[i]
				if cands[i].right {
					right += scores[i]
				}
			}
			for i, c := range cands {
				g := -scores[i] / total
				if c.right {
					g += scores[i] / right
				}
				for _, t := range c.terms {
					grad[t.f] += g * t.x
				}
			}
		}
		for f := range w {
			if active[f] {
				w[f] += opt.Step * (grad[f]/n - opt.L2*(w[f]-opt.Prior[f]))
			}
		}
	}
	return w
}

// Examples turns pages' candidates for field f into examples: right reports whether a
// candidate's value is the page's. Candidates a rule rules out are left out.
func Examples(f Field, pages []*Page, right func(page int, c *Candidate) bool) []Example {
	out := make([]Example, 0, len(pages))
	for pi, p := range pages {
		var e Example
		for i := range p.Candidates[f] {
			c := &p.Candidates[f][i]
			if !c.Competes() {
				continue
			}
			e.Features = append(e.Features, c.Features)
			e.Right = append(e.Right, right(pi, c))
		}
		out = append(out, e)
	}
	return out
}
