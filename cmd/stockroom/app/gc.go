package app

import "runtime/debug"

// SetGCPercent applies server.gc_percent (see configs/default.yaml) to a process that
// serves (stockroom serve, stockroom local run), unless the environment sets GOGC: that
// is Go's own setting, and an operator who set it meant it. 0 leaves Go's default. It
// returns whether the setting was applied. It is the process's setting, not the Service's:
// tests that start services leave it alone.
func SetGCPercent(percent int, lookupEnv func(string) (string, bool)) bool {
	if _, set := lookupEnv("GOGC"); set || percent == 0 {
		return false
	}
	debug.SetGCPercent(percent)
	return true
}
