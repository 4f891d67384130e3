// Package jsonvalid checks that bytes are one JSON value, as gjson.ValidBytes does,
// without recursion: documents fetched from stores and answers from third-party adapters
// are checked before anything reads them, and either can nest as deep as its size allows.
package jsonvalid

// Valid reports whether b is one JSON value between optional whitespace: what
// gjson.ValidBytes answers (FuzzValid holds it to that), without recursion.
//
// gjson recurses once per nesting level: a 10 MiB body of brackets, which any store can
// send, grew the goroutine's stack by hundreds of megabytes for seconds, and past Go's limit
// (a crash of the process) at 15 million levels. Here the open containers are a byte each
// on a slice.
func Valid(b []byte) bool {
	var open []byte // the containers the value at i is in: '{' or '['
	i := skipJSONSpace(b, 0)
	for {
		// A value starts at i.
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			i = skipJSONSpace(b, i+1)
			if i < len(b) && b[i] == closer {
				i++
				break
			}
			open = append(open, c)
			if c == '{' {
				if i = validMemberKey(b, i); i < 0 {
					return false
				}
			}
			continue
		case c == '"':
			i = validString(b, i+1)
		case c == '-' || '0' <= c && c <= '9':
			i = validNumber(b, i)
		case c == 't':
			i = validLiteral(b, i, "true")
		case c == 'f':
			i = validLiteral(b, i, "false")
		case c == 'n':
			i = validLiteral(b, i, "null")
		default:
			return false
		}
		if i < 0 {
			return false
		}
		// A value ended at i: close the containers it ends, up to the next member or
		// element.
		for {
			i = skipJSONSpace(b, i)
			if len(open) == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			container := open[len(open)-1]
			if b[i] == ',' {
				i = skipJSONSpace(b, i+1)
				if container == '{' {
					if i = validMemberKey(b, i); i < 0 {
						return false
					}
				}
				break
			}
			if container == '{' && b[i] != '}' || container == '[' && b[i] != ']' {
				return false
			}
			open = open[:len(open)-1]
			i++
		}
	}
}

// validMemberKey checks the key and colon of the member that starts at b[i] and returns
// where its value starts (whitespace skipped), or -1.
func validMemberKey(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = validString(b, i+1); i < 0 {
		return -1
	}
	if i = skipJSONSpace(b, i); i >= len(b) || b[i] != ':' {
		return -1
	}
	return skipJSONSpace(b, i+1)
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// plainStringByte marks the bytes a string's contents hold as they are: all but control
// characters, quotes and backslashes. A table lookup per byte ran faster over storefront
// descriptions, whose escapes come every dozen bytes, than testing eight bytes at a time.
var plainStringByte = func() (plain [256]bool) {
	for c := ' '; c < 256; c++ {
		plain[c] = c != '"' && c != '\\'
	}
	return plain
}()

// validString checks the string whose contents start at b[i] and returns where it ends,
// past its closing quote, or -1.
func validString(b []byte, i int) int {
	for {
		for i < len(b) && plainStringByte[b[i]] {
			i++
		}
		if i >= len(b) {
			return -1
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < ' ':
			return -1
		case c == '\\':
			if i+1 >= len(b) {
				return -1
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return -1
				}
				i += 6
			default:
				return -1
			}
		default:
			i++
		}
	}
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// validNumber checks the number that starts at b[i] and returns where it ends, or -1:
// an optional minus, 0 or digits not starting with 0, then optionally a fraction and an
// exponent. What follows is the caller's to check.
func validNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	if i >= len(b) || !isDigit(b[i]) {
		return -1
	}
	if b[i] == '0' {
		i++
	} else {
		i = skipDigits(b, i)
	}
	if i < len(b) && b[i] == '.' {
		if i++; i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		i = skipDigits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		i = skipDigits(b, i)
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func skipDigits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// validLiteral checks that b holds the literal word at i and returns where it ends, or -1.
func validLiteral(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}
