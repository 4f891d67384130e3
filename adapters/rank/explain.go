package rank

import (
	"fmt"
	"io"
	"strings"
)

// Explain writes, for each field, its candidates best first, each with its source, where
// the page wrote it, its score and its features, and marks the chosen one; those a rule
// ruled out follow, with the rule. It is what an adapter author reads to see why a page
// came out wrong (`stockroom adapter run --explain`).
func (d *Decision) Explain(w io.Writer) {
	for _, f := range Fields {
		best, ok := d.Best(f)
		switch {
		case ok:
			fmt.Fprintf(w, "%s: %q (%.2f)\n", f, best.Value, d.Confidence(f))
		default:
			fmt.Fprintf(w, "%s: none (%.2f)\n", f, d.none[f])
		}
		for _, c := range d.Ranked(f) {
			mark := " "
			if ok && c.Value == best.Value && c.Where == best.Where && c.Source == best.Source {
				mark = "*"
			}
			if !c.Competes() {
				fmt.Fprintf(w, "  %s  ----  %-9s %-32q %s [ruled out: %s]\n", mark, c.Source, truncate(c.Value, 30), c.Where, c.Excluded)
				continue
			}
			fmt.Fprintf(w, "  %s %.3f %-9s %-32q %s\n        %s\n", mark, c.Score, c.Source, truncate(c.Value, 30), truncate(c.Where, 60), c.Features.describe())
		}
	}
}

// describe lists the features that are not 0, by name.
func (v *Vector) describe() string {
	var parts []string
	for i, x := range v {
		if x == 0 || Feature(i) == Bias {
			continue
		}
		if x == 1 {
			parts = append(parts, Feature(i).String())
		} else {
			parts = append(parts, fmt.Sprintf("%s=%.2f", Feature(i), x))
		}
	}
	return strings.Join(parts, " ")
}
