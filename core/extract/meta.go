package extract

import "github.com/stockroom/stockroom/core/adapter"

// Meta is the count of an extraction's inputs by outcome. Its invariants hold by
// construction: Successful + Failed + Invalid + Pending = Requested, Failed is the sum of
// FailedBy and Invalid the sum of InvalidBy.
type Meta struct {
	Requested  int
	Successful int
	Failed     int
	FailedBy   map[adapter.Outcome]int
	Invalid    int
	InvalidBy  map[adapter.Outcome]int
	Pending    int
}

// Failed outcomes are worth retrying; invalid ones need the URL fixed.
var (
	failedOutcomes  = []adapter.Outcome{adapter.AutomatedAccessNotPermitted, adapter.Other}
	invalidOutcomes = []adapter.Outcome{adapter.NonProductURL, adapter.MalformedURL}
)

// MetaOf counts a tally of outcomes (pending under ""). An unknown outcome counts as other:
// nothing is ever left out of the sums.
func MetaOf(tally map[adapter.Outcome]int) Meta {
	m := Meta{FailedBy: map[adapter.Outcome]int{}, InvalidBy: map[adapter.Outcome]int{}}
	for outcome, n := range tally {
		if n <= 0 {
			continue
		}
		m.Requested += n
		switch outcome {
		case "":
			m.Pending += n
		case adapter.Success:
			m.Successful += n
		case adapter.NonProductURL, adapter.MalformedURL:
			m.Invalid += n
			m.InvalidBy[outcome] += n
		default:
			if outcome != adapter.AutomatedAccessNotPermitted {
				outcome = adapter.Other
			}
			m.Failed += n
			m.FailedBy[outcome] += n
		}
	}
	return m
}

// Processed is how many inputs have an outcome.
func (m Meta) Processed() int { return m.Requested - m.Pending }

// PercentComplete is the share of inputs with an outcome, 0 to 100.
func (m Meta) PercentComplete() float64 {
	if m.Requested == 0 {
		return 100
	}
	return float64(m.Processed()) * 100 / float64(m.Requested)
}
