package wire

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/plugins/jsonvalid"
)

// plainListings decodes a listings array in one pass over its text, when the text is in
// the form the SDK's encoder and the host's Shape templates write: each member once, named
// in lower case, with a value of its field's type; strings without escapes, in UTF-8;
// integers without fraction or exponent. It answers what the general decoder answers on
// such text (TestPlainListingsAgreeWithDecode, FuzzDecodeResponse); ok is false for any
// other text, which the general decoder then reads. A page's 250 listings crossed gjson's
// walk up to four times each: once to find where the list ends, once per element to find
// where it ends, then for its members, and again for the members of its price and images.
func plainListings(raw string) (out []adapter.Listing, ok bool) {
	p := plainScan{s: raw}
	out = []adapter.Listing{}
	ok = p.list(func() bool {
		var l adapter.Listing
		if !p.object(func(key string) bool {
			switch key {
			case "url":
				return p.str(&l.URL)
			case "id":
				return p.str(&l.ID)
			case "title":
				return p.str(&l.Title)
			case "price":
				l.Price = nil
				if p.null() {
					return true
				}
				l.Price = &product.Price{}
				return p.price(l.Price)
			case "images":
				return p.images(&l.Images)
			case "record":
				return p.record(&l.Record)
			}
			return false
		}) {
			return false
		}
		out = append(out, l)
		return true
	})
	if !ok || !p.end() {
		return nil, false
	}
	return out, true
}

// plainScan reads JSON text of the plain form plainListings takes; every method reports
// false, leaving the scan unusable, when the text is in any other form.
type plainScan struct {
	s string
	i int
}

func (p *plainScan) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\r' || p.s[p.i] == '\t') {
		p.i++
	}
}

// take consumes c, after whitespace, when it comes next.
func (p *plainScan) take(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (p *plainScan) end() bool {
	p.space()
	return p.i == len(p.s)
}

// record reads a listing's record: null, or an object kept as written.
func (p *plainScan) record(dst *json.RawMessage) bool {
	*dst = nil
	if p.null() {
		return true
	}
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		return false
	}
	// The text is valid JSON (see plainListings): the object ends at the brace that
	// closes the first, outside strings.
	start, depth := p.i, 0
	for ; p.i < len(p.s); p.i++ {
		switch p.s[p.i] {
		case '"':
			// Past the string, less the step the loop takes.
			p.i = jsonvalid.StringEnd(p.s, p.i) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				p.i++
				*dst = sharedBytes(p.s[start:p.i])
				return true
			}
		}
	}
	return false
}

func (p *plainScan) null() bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], "null") {
		p.i += len("null")
		return true
	}
	return false
}

// list reads an array, elem reading each element.
func (p *plainScan) list(elem func() bool) bool {
	if !p.take('[') {
		return false
	}
	for first := true; !p.take(']'); first = false {
		if !first && !p.take(',') || !elem() {
			return false
		}
	}
	return true
}

// object reads an object whose members member reads, each named once: the general
// decoder and encoding/json differ from one another on repeated members.
func (p *plainScan) object(member func(key string) bool) bool {
	if !p.take('{') {
		return false
	}
	var names [8]string
	seen := names[:0]
	for first := true; !p.take('}'); first = false {
		if !first && !p.take(',') {
			return false
		}
		key, ok := p.text()
		if !ok || !lowerName(key) || slices.Contains(seen, key) || !p.take(':') {
			return false
		}
		seen = append(seen, key)
		if !member(key) {
			return false
		}
	}
	return true
}

// lowerName reports whether a member name is lower-case ASCII letters and underscores,
// the names the general decoder matches without folding.
func lowerName(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return k != ""
}

// text reads a string without escapes, in UTF-8.
func (p *plainScan) text() (string, bool) {
	if !p.take('"') {
		return "", false
	}
	n := strings.IndexByte(p.s[p.i:], '"')
	if n < 0 {
		return "", false
	}
	t := p.s[p.i : p.i+n]
	p.i += n + 1
	return t, strings.IndexByte(t, '\\') < 0 && utf8.ValidString(t)
}

// str reads a string field: null leaves it as it is.
func (p *plainScan) str(dst *string) bool {
	if p.null() {
		return true
	}
	t, ok := p.text()
	*dst = t
	return ok
}

// number reads a number's text.
func (p *plainScan) number() (string, bool) {
	p.space()
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-.0123456789eE", p.s[p.i]) >= 0 {
		p.i++
	}
	return p.s[start:p.i], p.i > start
}

func (p *plainScan) float(dst *float64) bool {
	raw, ok := p.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(f, 0) {
		return false
	}
	*dst = f
	return true
}

func (p *plainScan) integer(dst *int) bool {
	raw, ok := p.number()
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(raw, 10, strconv.IntSize)
	*dst = int(n)
	return err == nil
}

func (p *plainScan) price(dst *product.Price) bool {
	return p.object(func(key string) bool {
		switch key {
		case "current_value":
			return p.null() || p.float(&dst.Current)
		case "compare_at_value":
			dst.CompareAt = nil
			if p.null() {
				return true
			}
			dst.CompareAt = new(float64)
			return p.float(dst.CompareAt)
		case "currency":
			return p.str(&dst.Currency)
		}
		return false
	})
}

func (p *plainScan) images(dst *[]product.Image) bool {
	*dst = nil
	if p.null() {
		return true
	}
	*dst = []product.Image{}
	return p.list(func() bool {
		var im product.Image
		if !p.null() && !p.object(func(key string) bool { return p.image(key, &im) }) {
			return false
		}
		*dst = append(*dst, im)
		return true
	})
}

func (p *plainScan) image(key string, im *product.Image) bool {
	optionalInt := func(dst **int) bool {
		*dst = nil
		if p.null() {
			return true
		}
		*dst = new(int)
		return p.integer(*dst)
	}
	switch key {
	case "id":
		return p.str(&im.ID)
	case "url":
		return p.str(&im.URL)
	case "alt_text":
		im.AltText = nil
		if p.null() {
			return true
		}
		im.AltText = new(string)
		return p.str(im.AltText)
	case "position":
		return p.null() || p.integer(&im.Position)
	case "width":
		return optionalInt(&im.Width)
	case "height":
		return optionalInt(&im.Height)
	case "variant_ids":
		return p.strings(&im.VariantIDs)
	}
	return false
}

func (p *plainScan) strings(dst *[]string) bool {
	*dst = nil
	if p.null() {
		return true
	}
	*dst = []string{}
	return p.list(func() bool {
		var s string
		if !p.str(&s) {
			return false
		}
		*dst = append(*dst, s)
		return true
	})
}
