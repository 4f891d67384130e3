package app

import (
	"runtime/debug"
	"testing"
)

func TestSetGCPercentAppliesTheSettingUnlessGOGCIsSet(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	noEnv := func(string) (string, bool) { return "", false }
	withGOGC := func(name string) (string, bool) { return "50", name == "GOGC" }

	if !SetGCPercent(250, noEnv) {
		t.Fatal("gc_percent 250 without GOGC was not applied")
	}
	if got := debug.SetGCPercent(100); got != 250 {
		t.Fatalf("the collector's percent is %d, want 250", got)
	}
	for _, c := range []struct {
		name    string
		percent int
		env     func(string) (string, bool)
	}{
		{"GOGC set", 250, withGOGC},
		{"0 keeps Go's default", 0, noEnv},
	} {
		if SetGCPercent(c.percent, c.env) {
			t.Errorf("%s: the setting was applied", c.name)
		}
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("%s: the collector's percent is %d, want it left at 100", c.name, got)
		}
	}
}
