package enrich

import (
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/stockroom/stockroom/core/product"
)

// ImageTags returns the tags of each image of the product, keyed by image URL (by id when
// the URL is empty). Every image has an entry, possibly empty. Tags are lower case and
// sorted:
//   - view words found in the alt text or the file name: front, back, side, top, bottom,
//     detail, lifestyle, model, swatch, flat-lay, packaging, interior;
//   - the color values of the variants the image is linked to (Image.VariantIDs, or a
//     variant whose ImageID is the image's id), and the product's color option values
//     found in the alt text or the file name ("...-Frost-Front.png" -> "frost");
//   - color words of the vocabulary found in the alt text or file name, and the family of
//     every color tag the vocabulary knows ("navy" -> also "blue").
func ImageTags(p *product.Product) map[string][]string {
	out := map[string][]string{}
	if p == nil {
		return out
	}
	colorNames := map[string]bool{}
	var colorValues []string
	for _, o := range p.Options {
		if colorOptionNames[strings.Join(words(o.Name), " ")] {
			colorNames[o.Name] = true
			colorValues = append(colorValues, o.Values...)
		}
	}
	variantColors := map[string][]string{}
	imageOfVariant := map[string][]string{}
	for _, v := range p.Variants {
		for name, val := range v.Options {
			if colorNames[name] || colorOptionNames[strings.Join(words(name), " ")] {
				variantColors[v.ID] = append(variantColors[v.ID], val)
			}
		}
		if v.ImageID != nil && *v.ImageID != "" {
			imageOfVariant[*v.ImageID] = append(imageOfVariant[*v.ImageID], v.ID)
		}
	}
	for _, img := range p.Images {
		key := img.URL
		if key == "" {
			key = img.ID
		}
		if key == "" {
			continue
		}
		tags := map[string]bool{}
		add := func(t string) {
			if t = strings.ToLower(squash(t)); t != "" {
				tags[t] = true
			}
		}
		var texts []string
		if img.AltText != nil {
			texts = append(texts, *img.AltText)
		}
		if name := fileWords(img.URL); name != "" {
			texts = append(texts, name)
		}
		for _, text := range texts {
			toks := tokenize(text)
			for _, h := range views.find(toks) {
				add(h.value)
			}
			for _, h := range colorFamilies.find(toks) {
				add(quote(text, toks, h.i, h.j))
			}
			for _, cv := range colorValues {
				if w := phrase(cv); len(w) > 0 && containsPhrase(toks, w) {
					add(cv)
				}
			}
		}
		ids := append(append([]string(nil), img.VariantIDs...), imageOfVariant[img.ID]...)
		for _, id := range ids {
			for _, c := range variantColors[id] {
				add(c)
			}
		}
		for t := range tags {
			for _, h := range colorFamilies.find(tokenize(t)) {
				tags[h.value] = true
			}
		}
		list := make([]string, 0, len(tags))
		for t := range tags {
			list = append(list, t)
		}
		sort.Strings(list)
		out[key] = list
	}
	return out
}

// fileWords is the file name of an image URL as words: extension, query and CDN size
// suffixes dropped, camel case and separators split ("TumblerFrost-Front_1024x1024.png" ->
// "Tumbler Frost Front").
func fileWords(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	base := path.Base(u.Path)
	if base == "." || base == "/" {
		return ""
	}
	base = strings.TrimSuffix(base, path.Ext(base))
	var b strings.Builder
	prevLower := false
	for _, r := range base {
		switch {
		case r == '-' || r == '_' || r == '.' || r == '+' || r == '%':
			b.WriteRune(' ')
			prevLower = false
			continue
		case r >= 'A' && r <= 'Z' && prevLower:
			b.WriteRune(' ')
		}
		b.WriteRune(r)
		prevLower = r >= 'a' && r <= 'z'
	}
	var keep []string
	for _, w := range strings.Fields(b.String()) {
		if isSizeOrHash(w) {
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}

// isSizeOrHash drops "1024x1024", long hex ids and bare numbers.
func isSizeOrHash(w string) bool {
	lw := strings.ToLower(w)
	if i := strings.IndexByte(lw, 'x'); i > 0 && i < len(lw)-1 && allDigits(lw[:i]) && allDigits(lw[i+1:]) {
		return true
	}
	if allDigits(lw) {
		return true
	}
	if len(lw) >= 16 && strings.Trim(lw, "0123456789abcdef") == "" {
		return true
	}
	return false
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func containsPhrase(toks []token, w []string) bool {
	for i := range toks {
		if spans(toks, i, w) {
			return true
		}
	}
	return false
}
