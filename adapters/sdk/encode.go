package sdk

import (
	"encoding/binary"
	"math"
	"strconv"
	"unsafe"
)

// The guest answers in JSON (ABI.md). encoding/json is reflection-driven, which in a
// WebAssembly guest costs more than the whole rest of a typical call; this hand-written
// encoder of the response types is an order of magnitude cheaper. The host decodes the
// output with encoding/json, and encode_test.go checks both agree.

type enc struct {
	b     []byte
	comma bool
}

func (e *enc) sep() {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.comma = true
}

func (e *enc) key(k string) {
	e.sep()
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
}

func (e *enc) open(c byte)  { e.b = append(e.b, c); e.comma = false }
func (e *enc) close(c byte) { e.b = append(e.b, c); e.comma = true }

const hexDigits = "0123456789abcdef"

func (e *enc) str(s string) {
	e.b = append(e.b, '"')
	// A read-only view of s: converting each 8-byte chunk would copy it, and in a
	// WebAssembly guest every copy is a call into the runtime.
	view := unsafe.Slice(unsafe.StringData(s), len(s))
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs escaping: descriptions run to tens of
		// kilobytes, and a byte loop is slow in a WebAssembly guest.
		if i+8 <= len(s) && !needsEscape(binary.LittleEndian.Uint64(view[i:])) {
			i += 8
			continue
		}
		if i+8 > len(s) && len(s) >= 8 && !needsEscape(binary.LittleEndian.Uint64(view[len(s)-8:])) {
			// The tail, up to seven bytes, read at once as the last eight, which overlap
			// bytes already read: byte by byte, in a guest, each turn of the loop costs
			// what a call does, and most strings end in a tail.
			break
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			// Bytes from 0x80 pass as they are: the host's decoder replaces invalid UTF-8.
			i++
			continue
		}
		e.b = append(e.b, s[start:i]...)
		switch c {
		case '"', '\\':
			e.b = append(e.b, '\\', c)
		case '\n':
			e.b = append(e.b, '\\', 'n')
		case '\r':
			e.b = append(e.b, '\\', 'r')
		case '\t':
			e.b = append(e.b, '\\', 't')
		default:
			e.b = append(e.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	e.b = append(e.b, s[start:]...)
	e.b = append(e.b, '"')
}

// needsEscape reports whether any byte of the eight in x is a control character, '"' or
// '\\' (the "has zero byte" and "has byte less than" tricks of Bit Twiddling Hacks).
func needsEscape(x uint64) bool {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) uint64 { return (v - ones) & ^v & high }
	less := (x - ones*0x20) & ^x & high
	return less|hasZero(x^(ones*'"'))|hasZero(x^(ones*'\\')) != 0
}

// num appends f as strconv.AppendFloat(b, f, 'f', -1, 64) does: the shortest decimal
// that reads back as f. A price in whole cents is written from its cents; the shortest
// decimal of any float costs a guest more than encoding the rest of a listing.
func (e *enc) num(f float64) {
	if cents := math.Round(f * 100); cents < 1<<50 && cents/100 == f && !math.Signbit(f) {
		// cents/100 rounds once to f, so the decimal cents/100 reads back as f; and none
		// shorter does: below 2^50 cents, floats lie closer together than 0.005, so another
		// decimal of at most two places is another float.
		n := uint64(cents)
		e.b = strconv.AppendUint(e.b, n/100, 10)
		switch frac := n % 100; {
		case frac == 0:
		case frac%10 == 0:
			e.b = append(e.b, '.', byte('0'+frac/10))
		default:
			e.b = append(e.b, '.', byte('0'+frac/10), byte('0'+frac%10))
		}
		return
	}
	e.b = strconv.AppendFloat(e.b, f, 'f', -1, 64)
}

func (e *enc) strField(k, v string) {
	if v != "" {
		e.key(k)
		e.str(v)
	}
}

func (e *enc) strPtr(k string, v *string) {
	if v != nil {
		e.key(k)
		e.str(*v)
	}
}

func (e *enc) intPtr(k string, v *int) {
	if v != nil {
		e.key(k)
		e.b = strconv.AppendInt(e.b, int64(*v), 10)
	}
}

func (e *enc) intField(k string, v int) {
	if v != 0 {
		e.key(k)
		e.b = strconv.AppendInt(e.b, int64(v), 10)
	}
}

func (e *enc) boolPtr(k string, v *bool) {
	if v != nil {
		e.key(k)
		e.b = strconv.AppendBool(e.b, *v)
	}
}

func (e *enc) strs(k string, vs []string) {
	if len(vs) == 0 {
		return
	}
	e.key(k)
	e.open('[')
	for _, v := range vs {
		e.sep()
		e.str(v)
	}
	e.close(']')
}

func (e *enc) strMap(k string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	e.key(k)
	e.open('{')
	for mk, mv := range m {
		e.key2(mk)
		e.str(mv)
	}
	e.close('}')
}

// key2 writes a key that may need escaping.
func (e *enc) key2(k string) {
	e.sep()
	e.str(k)
	e.b = append(e.b, ':')
}

func (e *enc) price(k string, p *Price) {
	if p == nil {
		return
	}
	e.key(k)
	e.open('{')
	e.key("current_value")
	e.num(p.Current)
	e.key("compare_at_value")
	if p.CompareAt != nil {
		e.num(*p.CompareAt)
	} else {
		e.b = append(e.b, "null"...)
	}
	e.strField("currency", p.Currency)
	e.close('}')
}

func (e *enc) image(im *Image) {
	if im.ID == "" && im.AltText == nil && im.Position == 0 && im.Width == nil && im.Height == nil && len(im.VariantIDs) == 0 {
		// A listing's picture is most often its URL alone, so write that case directly
		// rather than checking each absent field in turn.
		e.b = append(e.b, `{"url":`...)
		e.str(im.URL)
		e.close('}')
		return
	}
	e.open('{')
	e.strField("id", im.ID)
	e.key("url")
	e.str(im.URL)
	e.strPtr("alt_text", im.AltText)
	e.intField("position", im.Position)
	e.intPtr("width", im.Width)
	e.intPtr("height", im.Height)
	e.strs("variant_ids", im.VariantIDs)
	e.close('}')
}

func (e *enc) images(k string, ims []Image) {
	if len(ims) == 0 {
		return
	}
	e.key(k)
	e.open('[')
	for i := range ims {
		e.sep()
		e.image(&ims[i])
	}
	e.close(']')
}

func (e *enc) product(p *Product) {
	e.open('{')
	e.strField("id", p.ID)
	e.strField("url", p.URL)
	e.strField("handle", p.Handle)
	e.strPtr("title", p.Title)
	e.strPtr("description", p.Description)
	e.strPtr("description_html", p.DescriptionHTML)
	e.strPtr("vendor", p.Vendor)
	e.strPtr("brand", p.Brand)
	e.strPtr("product_type", p.ProductType)
	e.strs("tags", p.Tags)
	e.strPtr("platform", p.Platform)
	e.strPtr("platform_id", p.PlatformID)
	e.strPtr("canonical_url", p.CanonicalURL)
	e.strPtr("video_url", p.VideoURL)
	e.boolPtr("is_available", p.IsAvailable)
	e.price("price", p.Price)
	e.strPtr("sku", p.SKU)
	e.strPtr("gtin", p.GTIN)
	e.strPtr("mpn", p.MPN)
	e.images("images", p.Images)
	if len(p.Options) > 0 {
		e.key("options")
		e.open('[')
		for _, o := range p.Options {
			e.sep()
			e.open('{')
			e.key("name")
			e.str(o.Name)
			e.intField("position", o.Position)
			e.key("values")
			e.open('[')
			for _, v := range o.Values {
				e.sep()
				e.str(v)
			}
			e.close(']')
			e.close('}')
		}
		e.close(']')
	}
	if len(p.Variants) > 0 {
		e.key("variants")
		e.open('[')
		for i := range p.Variants {
			v := &p.Variants[i]
			e.sep()
			e.open('{')
			e.strField("id", v.ID)
			e.strPtr("title", v.Title)
			e.strPtr("sku", v.SKU)
			e.strPtr("gtin", v.GTIN)
			e.strPtr("mpn", v.MPN)
			e.strMap("options", v.Options)
			e.boolPtr("is_available", v.IsAvailable)
			e.price("price", v.Price)
			e.strPtr("image_id", v.ImageID)
			e.close('}')
		}
		e.close(']')
	}
	if len(p.Breadcrumbs) > 0 {
		e.key("breadcrumbs")
		e.open('[')
		for _, b := range p.Breadcrumbs {
			e.sep()
			e.open('{')
			e.key("name")
			e.str(b.Name)
			e.strField("url", b.URL)
			e.close('}')
		}
		e.close(']')
	}
	e.strPtr("updated_at", p.UpdatedAt)
	e.strMap("sources", p.Sources)
	e.close('}')
}

// appendResponse appends r as JSON to b.
func appendResponse(b []byte, r *wireResponse) []byte {
	e := enc{b: b}
	e.open('{')
	if i := r.Info; i != nil {
		e.key("info")
		e.open('{')
		e.key("name")
		e.str(i.Name)
		e.key("version")
		e.str(i.Version)
		e.strs("platforms", i.Platforms)
		e.strs("url_patterns", i.URLPatterns)
		e.strs("collection_patterns", i.CollectionPatterns)
		e.key("capabilities")
		e.open('[')
		for _, c := range i.Capabilities {
			e.sep()
			e.str(c)
		}
		e.close(']')
		e.close('}')
	}
	e.strs("fetch", r.Fetch)
	if d := r.Detection; d != nil {
		e.key("detection")
		e.open('{')
		e.key("platform")
		e.str(d.Platform)
		e.key("confidence")
		e.num(d.Confidence)
		e.strs("evidence", d.Evidence)
		e.close('}')
	}
	if len(r.Collections) > 0 {
		e.key("collections")
		e.open('[')
		for _, c := range r.Collections {
			e.sep()
			e.open('{')
			e.key("url")
			e.str(c.URL)
			e.strField("handle", c.Handle)
			e.strField("title", c.Title)
			e.intPtr("products_count", c.ProductsCount)
			e.strField("currency", c.Currency)
			e.close('}')
		}
		e.close(']')
	}
	if len(r.Listings) > 0 {
		e.key("listings")
		e.open('[')
		for i := range r.Listings {
			l := &r.Listings[i]
			e.sep()
			e.open('{')
			e.key("url")
			e.str(l.URL)
			e.strField("id", l.ID)
			e.strField("title", l.Title)
			e.price("price", l.Price)
			e.images("images", l.Images)
			if len(l.Record) > 0 {
				e.key("record")
				e.b = append(e.b, l.Record...)
			}
			e.close('}')
		}
		e.close(']')
	}
	e.strField("next", r.Next)
	e.intField("total", r.Total)
	e.strs("ahead", r.Ahead)
	if r.Product != nil {
		e.key("product")
		e.product(r.Product)
	}
	e.strField("outcome", r.Outcome)
	e.strField("message", r.Message)
	e.close('}')
	return e.b
}

// Quote returns s as a JSON string literal: how data (an option's name, a base URL) goes
// into a Shape template.
func Quote(s string) string {
	e := enc{}
	e.str(s)
	return string(e.b)
}
