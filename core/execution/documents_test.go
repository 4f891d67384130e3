package execution

import (
	"encoding/json"
	"testing"
)

type counts struct {
	Found int `json:"found"`
}

// Progress is read only while an execution runs, and reads as zero before its first
// report; a result only once it has completed.
func TestDocumentsAreReadInTheStatesTheyBelongTo(t *testing.T) {
	for _, tc := range []struct {
		name         string
		e            Execution
		wantProgress *counts
		wantResult   *counts
		wantErr      bool
	}{
		{name: "pending", e: Execution{Status: Pending}},
		{name: "running before its first report", e: Execution{Status: Running}, wantProgress: &counts{}},
		{name: "running", e: Execution{Status: Running, Progress: json.RawMessage(`{"found": 3}`)}, wantProgress: &counts{3}},
		{name: "completed", e: Execution{Status: Completed, Progress: json.RawMessage(`{"found": 3}`), Result: json.RawMessage(`{"found": 7}`)}, wantResult: &counts{7}},
		{name: "completed, its result unreadable", e: Execution{ID: "x", Status: Completed, Result: json.RawMessage(`[`)}, wantErr: true},
		{name: "failed", e: Execution{Status: Failed, Result: json.RawMessage(`{"found": 7}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ProgressOf[counts](tc.e); (got == nil) != (tc.wantProgress == nil) || got != nil && *got != *tc.wantProgress {
				t.Errorf("progress %v, want %v", got, tc.wantProgress)
			}
			got, err := ResultOf[counts](tc.e)
			if (err != nil) != tc.wantErr || (got == nil) != (tc.wantResult == nil) || got != nil && *got != *tc.wantResult {
				t.Errorf("result %v %v, want %v (an error: %v)", got, err, tc.wantResult, tc.wantErr)
			}
		})
	}
}
