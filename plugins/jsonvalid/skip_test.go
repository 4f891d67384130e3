package jsonvalid

import "testing"

func TestStringEndSkipsEscapedQuotes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{`"plain",1`, 7},
		{`""`, 2},
		{`"a\"b"x`, 6},
		{`"a\\"x`, 5},
		{`"a\\\"b"x`, 8},
		{`"unterminated`, 13},
		{`"ends in \"`, 11},
	} {
		if got := StringEnd(tc.s, 0); got != tc.want {
			t.Errorf("StringEnd(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
