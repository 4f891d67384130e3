package execution

import (
	"encoding/json"
	"fmt"
)

// ProgressOf reads e's progress document as a P while e runs: zero values until its first
// report. It is nil once e has ended, or before it started.
func ProgressOf[P any](e Execution) *P {
	if e.Status != Running {
		return nil
	}
	var p P
	_ = json.Unmarshal(e.Progress, &p) // none saved yet: zero values
	return &p
}

// ResultOf reads e's result document as an R once e has completed; it is nil before.
func ResultOf[R any](e Execution) (*R, error) {
	if e.Status != Completed {
		return nil, nil
	}
	var r R
	if err := json.Unmarshal(e.Result, &r); err != nil {
		return nil, fmt.Errorf("read result of %s: %w", e.ID, err)
	}
	return &r, nil
}
