// Package evaluation measures search quality: a labelled set of queries (queries.json,
// graded by the judgement rule in README.md, never by the engine) over a fixed catalog,
// scored with nDCG@10, MRR and the count of hard-constraint violations, for Stockroom's
// engine and a plain full-text baseline side by side. `make eval` runs the full set; the
// package's ordinary test runs a subset so that CI guards the bar.
package evaluation
