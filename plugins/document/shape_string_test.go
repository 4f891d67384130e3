package document

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// A string written into a Shape result is valid JSON that reads back as the string, with
// each invalid UTF-8 byte read as U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain text", `quote " and \ slash`, "tab\there\n", "\x00\x1f", "é ✓ 😀", "bad \xff utf8", "\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q wrote %s: %v", s, out, err)
		}
		var want strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				want.WriteRune(utf8.RuneError)
			} else {
				want.WriteString(s[i : i+size])
			}
			i += size
		}
		if back != want.String() {
			t.Fatalf("%q wrote %s, which reads %q", s, out, back)
		}
	})
}
