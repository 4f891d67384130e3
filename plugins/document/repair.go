package document

import (
	"bytes"
	"unicode/utf8"

	"github.com/stockroom/stockroom/plugins/jsonvalid"
)

// Repair returns a valid JSON rendering of the almost-JSON real pages put in
// <script type="application/ld+json"> blocks, or nil when it cannot. It fixes what stores
// actually ship:
//
//   - bytes that are not UTF-8 (Latin-1 pages), re-read as Latin-1;
//   - HTML comment and CDATA wrappers around the block (bare, after //, or in /* */);
//   - raw line breaks and tabs inside strings;
//   - invalid escapes inside strings (\' and \x), keeping the escaped character;
//   - trailing commas before } and ];
//   - several top-level values one after the other, wrapped into an array.
//
// Valid input is returned unchanged, so callers may call Repair only after a validity check
// failed.
func Repair(b []byte) []byte {
	if valid(b) {
		return b
	}
	b = toUTF8(b)
	b = bytes.TrimSpace(b)
	for _, w := range [][2]string{{"<!--", "-->"}, {"/*<![CDATA[*/", "/*]]>*/"}, {"//<![CDATA[", "//]]>"}, {"<![CDATA[", "]]>"}} {
		if bytes.HasPrefix(b, []byte(w[0])) {
			b = bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(b[len(w[0]):]), []byte(w[1])))
		}
	}
	b = bytes.TrimSuffix(b, []byte(";"))

	out := make([]byte, 0, len(b)+16)
	inString, escaped := false, false
	depth, values := 0, 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
				if !bytes.ContainsRune([]byte(`"\/bfnrtu`), rune(c)) {
					// Invalid escape: drop the backslash, keep the character.
					out = out[:len(out)-1]
				}
				out = append(out, c)
			case c == '\\':
				escaped = true
				out = append(out, c)
			case c == '"':
				inString = false
				out = append(out, c)
			case c == '\n':
				out = append(out, `\n`...)
			case c == '\r':
				out = append(out, `\r`...)
			case c == '\t':
				out = append(out, `\t`...)
			case c < 0x20:
				// Other control characters carry nothing a reader sees.
			default:
				out = append(out, c)
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth == 0 {
				if values > 0 {
					out = append(out, ',')
				}
				values++
			}
			depth++
		case '}', ']':
			depth--
			// Drop a trailing comma (and the white space after it).
			j := len(out) - 1
			for j >= 0 && isSpace(out[j]) {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out = out[:j]
			}
		}
		out = append(out, c)
	}
	if values > 1 {
		out = append(append([]byte{'['}, out...), ']')
	}
	if !jsonvalid.Valid(out) {
		return nil
	}
	return out
}

// valid reports whether b is JSON in UTF-8; gjson alone lets other bytes through.
func valid(b []byte) bool { return utf8.Valid(b) && jsonvalid.Valid(b) }

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// toUTF8 re-reads b as Latin-1 when it is not valid UTF-8: pages that are not UTF-8 are
// overwhelmingly Latin-1 or Windows-1252, whose letters share Latin-1's code points.
func toUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			out = utf8.AppendRune(out, rune(b[0]))
			b = b[1:]
			continue
		}
		out = append(out, b[:size]...)
		b = b[size:]
	}
	return out
}
