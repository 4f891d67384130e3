package jsonvalid

import "strings"

// StringEnd returns where the string that starts at s[i] (its opening quote) ends, past
// its closing quote; len(s) when it is not closed. It reads escapes only to tell an
// escaped quote from the closing one, so it is for JSON that Valid accepted: the scanners
// that read such a document's strings a run at a time rather than byte by byte.
func StringEnd(s string, i int) int {
	for i++; ; {
		q := strings.IndexByte(s[i:], '"')
		if q < 0 {
			return len(s)
		}
		i += q
		backslashes := 0
		for j := i - 1; s[j] == '\\'; j-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			return i
		}
	}
}
