// Package wire decodes the answer an adapter gives the host (adapters/ABI.md): the JSON a
// WebAssembly guest writes with its output, and the parts a natively built adapter splices
// in as JSON.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/plugins/jsonvalid"
)

// Decode decodes an adapter's answer (ABI.md) as encoding/json would decode it into
// an adapter.Response, for the member names ABI.md lists. encoding/json walks a product of
// dozens of variants and images by reflection, which cost more than the guest's whole
// extraction; this walks it once with gjson. Rare members (detection, collections,
// reviews) are still handed to encoding/json. out must not change afterwards: strings of
// the response share its bytes.
func Decode(out []byte) (*adapter.Response, error) {
	if !jsonvalid.Valid(out) {
		return nil, errors.New("invalid JSON")
	}
	return decode(out)
}

// decode is Decode of JSON known to be valid.
func decode(out []byte) (*adapter.Response, error) {
	root := gjson.Parse(unsafe.String(unsafe.SliceData(out), len(out)))
	var resp adapter.Response
	d := decoder{}
	switch {
	case root.Type == gjson.Null:
		return &resp, nil
	case !root.IsObject():
		return nil, errors.New("not a JSON object")
	}
	root.ForEach(func(k, v gjson.Result) bool {
		switch memberName(k) {
		case "fetch":
			resp.Fetch = d.strings(v, "fetch")
		case "detection":
			d.fallback(v, "detection", &resp.Detection)
		case "collections":
			d.fallback(v, "collections", &resp.Collections)
		case "listings":
			if l, ok := plainListings(v.Raw); ok {
				resp.Listings = l
			} else {
				resp.Listings = list(&d, v, "listings", d.listing)
			}
		case "next":
			d.str(v, "next", &resp.Next)
		case "total":
			d.integer(v, "total", &resp.Total)
		case "ahead":
			resp.Ahead = d.strings(v, "ahead")
		case "product":
			resp.Product = nil
			if d.object(v, "product") {
				resp.Product = d.product(v)
			}
		case "outcome":
			var o string
			d.str(v, "outcome", &o)
			resp.Outcome = adapter.Outcome(o)
		case "message":
			d.str(v, "message", &resp.Message)
		}
		return d.err == nil
	})
	if d.err != nil {
		return nil, d.err
	}
	return &resp, nil
}

// memberName is k folded the way encoding/json matches member names to fields, as far as
// it matters for the names of ABI.md (lower-case ASCII): ASCII letters in any case, and the
// two non-ASCII letters Unicode folds onto ASCII ones (ſ, the long s, and K, the Kelvin
// sign).
func memberName(k gjson.Result) string {
	plain := true
	for i := 0; i < len(k.Str) && plain; i++ {
		c := k.Str[i]
		plain = 'a' <= c && c <= 'z' || c == '_'
	}
	if plain {
		return k.Str
	}
	b := make([]byte, 0, len(k.Str))
	for _, r := range k.Str {
		switch {
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		case r == 'ſ':
			r = 's'
		case r == '\u212a':
			r = 'k'
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// decoder keeps the first type error of a decoding; later reads are skipped.
type decoder struct{ err error }

func (d *decoder) fail(field, want string) {
	if d.err == nil {
		d.err = fmt.Errorf("%s: want %s", field, want)
	}
}

// text is a JSON string's contents with invalid UTF-8 replaced, byte by byte, as
// encoding/json does.
func text(v gjson.Result) string {
	if utf8.ValidString(v.Str) {
		return v.Str
	}
	b := make([]byte, 0, len(v.Str)+8)
	for i := 0; i < len(v.Str); {
		r, size := utf8.DecodeRuneInString(v.Str[i:])
		b = utf8.AppendRune(b, r)
		i += size
	}
	return string(b)
}

// optional reads v with read into a new T, or nil when v is null: a pointer field.
func optional[T any](v gjson.Result, field string, read func(gjson.Result, string, *T)) *T {
	if v.Type == gjson.Null {
		return nil
	}
	x := new(T)
	read(v, field, x)
	return x
}

func (d *decoder) strPtr(v gjson.Result, field string) *string { return optional(v, field, d.str) }

func (d *decoder) floatPtr(v gjson.Result, field string) *float64 {
	return optional(v, field, d.float)
}

func (d *decoder) intPtr(v gjson.Result, field string) *int { return optional(v, field, d.integer) }

// str reads a string into dst; null leaves dst alone.
func (d *decoder) str(v gjson.Result, field string, dst *string) {
	switch v.Type {
	case gjson.String:
		*dst = text(v)
	case gjson.Null:
	default:
		d.fail(field, "a string")
	}
}

func (d *decoder) float(v gjson.Result, field string, dst *float64) {
	switch v.Type {
	case gjson.Number:
		if math.IsInf(v.Num, 0) {
			d.fail(field, "a number in range")
			return
		}
		*dst = v.Num
	case gjson.Null:
	default:
		d.fail(field, "a number")
	}
}

// integer reads an int the way encoding/json does: a JSON number written as an integer.
func (d *decoder) integer(v gjson.Result, field string, dst *int) {
	switch v.Type {
	case gjson.Number:
		n, err := strconv.ParseInt(v.Raw, 10, strconv.IntSize)
		if err != nil {
			d.fail(field, "an integer")
			return
		}
		*dst = int(n)
	case gjson.Null:
	default:
		d.fail(field, "an integer")
	}
}

func (d *decoder) boolPtr(v gjson.Result, field string) *bool {
	switch v.Type {
	case gjson.True, gjson.False:
		b := v.Type == gjson.True
		return &b
	case gjson.Null:
	default:
		d.fail(field, "true or false")
	}
	return nil
}

// object reports whether v is an object; null is not, and is no error.
func (d *decoder) object(v gjson.Result, field string) bool {
	if v.IsObject() {
		return true
	}
	if v.Type != gjson.Null {
		d.fail(field, "an object")
	}
	return false
}

// list decodes the array v with elem, one element at a time. As with encoding/json, null
// is a nil slice and [] an empty one.
func list[T any](d *decoder, v gjson.Result, field string, elem func(gjson.Result) T) []T {
	if !v.IsArray() {
		if v.Type != gjson.Null {
			d.fail(field, "an array")
		}
		return nil
	}
	out := []T{}
	v.ForEach(func(_, e gjson.Result) bool {
		out = append(out, elem(e))
		return d.err == nil
	})
	return out
}

// members calls f with every member of the object v; null is an empty object.
func (d *decoder) members(v gjson.Result, field string, f func(k, v gjson.Result)) {
	if !d.object(v, field) {
		return
	}
	v.ForEach(func(k, e gjson.Result) bool {
		f(k, e)
		return d.err == nil
	})
}

func (d *decoder) strings(v gjson.Result, field string) []string {
	return list(d, v, field, func(e gjson.Result) string {
		var s string
		d.str(e, field, &s)
		return s
	})
}

func (d *decoder) stringMap(v gjson.Result, field string) map[string]string {
	if v.Type == gjson.Null {
		return nil
	}
	out := map[string]string{}
	d.members(v, field, func(k, e gjson.Result) {
		var s string
		d.str(e, field, &s)
		out[text(k)] = s
	})
	return out
}

// fallback decodes the rarely sent member v with encoding/json.
func (d *decoder) fallback(v gjson.Result, field string, dst any) {
	if err := json.Unmarshal([]byte(v.Raw), dst); err != nil && d.err == nil {
		d.err = fmt.Errorf("%s: %w", field, err)
	}
}

func (d *decoder) price(v gjson.Result, field string) *product.Price {
	if !d.object(v, field) {
		return nil
	}
	p := &product.Price{}
	v.ForEach(func(k, e gjson.Result) bool {
		switch memberName(k) {
		case "current_value":
			d.float(e, "price.current_value", &p.Current)
		case "compare_at_value":
			p.CompareAt = d.floatPtr(e, "price.compare_at_value")
		case "currency":
			d.str(e, "price.currency", &p.Currency)
		}
		return d.err == nil
	})
	return p
}

func (d *decoder) images(v gjson.Result) []product.Image {
	return list(d, v, "images", func(e gjson.Result) product.Image {
		var im product.Image
		d.members(e, "images", func(k, f gjson.Result) {
			switch memberName(k) {
			case "id":
				d.str(f, "image.id", &im.ID)
			case "url":
				d.str(f, "image.url", &im.URL)
			case "alt_text":
				im.AltText = d.strPtr(f, "image.alt_text")
			case "position":
				d.integer(f, "image.position", &im.Position)
			case "width":
				im.Width = d.intPtr(f, "image.width")
			case "height":
				im.Height = d.intPtr(f, "image.height")
			case "variant_ids":
				im.VariantIDs = d.strings(f, "image.variant_ids")
			}
		})
		return im
	})
}

func (d *decoder) listing(v gjson.Result) adapter.Listing {
	var l adapter.Listing
	d.members(v, "listings", func(k, f gjson.Result) {
		switch memberName(k) {
		case "url":
			d.str(f, "listing.url", &l.URL)
		case "id":
			d.str(f, "listing.id", &l.ID)
		case "title":
			d.str(f, "listing.title", &l.Title)
		case "price":
			l.Price = d.price(f, "listing.price")
		case "images":
			l.Images = d.images(f)
		case "record":
			if d.object(f, "listing.record") {
				l.Record = sharedBytes(f.Raw)
			}
		}
	})
	return l
}

func (d *decoder) product(v gjson.Result) *product.Product {
	p := &product.Product{}
	v.ForEach(func(k, f gjson.Result) bool {
		switch name := memberName(k); name {
		case "id":
			d.str(f, name, &p.ID)
		case "url":
			d.str(f, name, &p.URL)
		case "handle":
			d.str(f, name, &p.Handle)
		case "title":
			p.Title = d.strPtr(f, name)
		case "description":
			p.Description = d.strPtr(f, name)
		case "description_html":
			p.DescriptionHTML = d.strPtr(f, name)
		case "vendor":
			p.Vendor = d.strPtr(f, name)
		case "brand":
			p.Brand = d.strPtr(f, name)
		case "product_type":
			p.ProductType = d.strPtr(f, name)
		case "tags":
			p.Tags = d.strings(f, name)
		case "platform":
			p.Platform = d.strPtr(f, name)
		case "platform_id":
			p.PlatformID = d.strPtr(f, name)
		case "canonical_url":
			p.CanonicalURL = d.strPtr(f, name)
		case "video_url":
			p.VideoURL = d.strPtr(f, name)
		case "is_available":
			p.IsAvailable = d.boolPtr(f, name)
		case "price":
			p.Price = d.price(f, name)
		case "sku":
			p.SKU = d.strPtr(f, name)
		case "gtin":
			p.GTIN = d.strPtr(f, name)
		case "mpn":
			p.MPN = d.strPtr(f, name)
		case "images":
			p.Images = d.images(f)
		case "options":
			p.Options = list(d, f, name, d.option)
		case "variants":
			p.Variants = list(d, f, name, d.variant)
		case "breadcrumbs":
			p.Breadcrumbs = list(d, f, name, func(e gjson.Result) product.Breadcrumb {
				var b product.Breadcrumb
				d.members(e, name, func(k, g gjson.Result) {
					switch memberName(k) {
					case "name":
						d.str(g, "breadcrumb.name", &b.Name)
					case "url":
						d.str(g, "breadcrumb.url", &b.URL)
					}
				})
				return b
			})
		case "reviews":
			d.fallback(f, name, &p.Reviews)
		case "updated_at":
			p.UpdatedAt = d.strPtr(f, name)
		case "sources":
			p.Sources = d.stringMap(f, name)
		}
		return d.err == nil
	})
	return p
}

func (d *decoder) option(v gjson.Result) product.Option {
	var o product.Option
	d.members(v, "options", func(k, f gjson.Result) {
		switch memberName(k) {
		case "name":
			d.str(f, "option.name", &o.Name)
		case "position":
			d.integer(f, "option.position", &o.Position)
		case "values":
			o.Values = d.strings(f, "option.values")
		}
	})
	return o
}

func (d *decoder) variant(v gjson.Result) product.Variant {
	var va product.Variant
	d.members(v, "variants", func(k, f gjson.Result) {
		switch memberName(k) {
		case "id":
			d.str(f, "variant.id", &va.ID)
		case "title":
			va.Title = d.strPtr(f, "variant.title")
		case "sku":
			va.SKU = d.strPtr(f, "variant.sku")
		case "gtin":
			va.GTIN = d.strPtr(f, "variant.gtin")
		case "mpn":
			va.MPN = d.strPtr(f, "variant.mpn")
		case "options":
			va.Options = d.stringMap(f, "variant.options")
		case "is_available":
			va.IsAvailable = d.boolPtr(f, "variant.is_available")
		case "price":
			va.Price = d.price(f, "variant.price")
		case "image_id":
			va.ImageID = d.strPtr(f, "variant.image_id")
		}
	})
	return va
}

// sharedBytes is raw, a part of the response, as bytes that share its memory: a record
// is kept as written, and the response is kept alive by its listings' strings anyway.
func sharedBytes(raw string) json.RawMessage {
	return unsafe.Slice(unsafe.StringData(raw), len(raw))
}
