package html

import (
	"slices"
	"strings"
	"testing"
)

// FuzzSegments checks that pathSegments reads any path as lower-casing the whole path,
// splitting it at slashes and dropping the empty pieces would.
func FuzzSegments(f *testing.F) {
	for _, p := range []string{"", "/", "//a//B/", "/Collections/Summer-Sale", "/KATEGORIE/Über/x", "/a\xffB/c", "/İ/ß"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		var want []string
		for _, s := range strings.Split(strings.ToLower(p), "/") {
			if s != "" {
				want = append(want, s)
			}
		}
		if got := pathSegments(p, nil); !slices.Equal(got, want) {
			t.Fatalf("segments(%q) = %q, want %q", p, got, want)
		}
	})
}
