package extract

import (
	"math/rand/v2"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

// The invariants of results.meta hold for any mix of outcomes.
func TestMetaInvariantsHoldForAnyMixOfOutcomes(t *testing.T) {
	outcomes := []adapter.Outcome{"", adapter.Success, adapter.NonProductURL, adapter.MalformedURL,
		adapter.AutomatedAccessNotPermitted, adapter.Other, "something-new"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		tally := map[adapter.Outcome]int{}
		total := 0
		for _, o := range outcomes {
			if rng.IntN(3) == 0 {
				continue
			}
			n := rng.IntN(50)
			tally[o] = n
			total += n
		}
		m := MetaOf(tally)
		if m.Successful+m.Failed+m.Invalid+m.Pending != m.Requested || m.Requested != total {
			t.Fatalf("sum broken for %v: %+v", tally, m)
		}
		if sum(m.FailedBy) != m.Failed || sum(m.InvalidBy) != m.Invalid {
			t.Fatalf("by-reason sums broken for %v: %+v", tally, m)
		}
		for k, v := range m.FailedBy {
			if v <= 0 || (k != adapter.AutomatedAccessNotPermitted && k != adapter.Other) {
				t.Fatalf("failed_by has %q=%d", k, v)
			}
		}
		for k, v := range m.InvalidBy {
			if v <= 0 || (k != adapter.NonProductURL && k != adapter.MalformedURL) {
				t.Fatalf("invalid_by has %q=%d", k, v)
			}
		}
	}
}

func sum(m map[adapter.Outcome]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
