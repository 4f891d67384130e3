package enrich

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/product"
)

// The shared corpus holds real store data; it is read at test time and never copied here.
const corpusDir = "/work/shared/corpus"

type shopifyProduct struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	BodyHTML    string `json:"body_html"`
	ProductType string `json:"product_type"`
	Tags        any    `json:"tags"`
	Options     []struct {
		Name   string   `json:"name"`
		Values []string `json:"values"`
	} `json:"options"`
	Variants []struct {
		ID      int64   `json:"id"`
		Option1 *string `json:"option1"`
		Option2 *string `json:"option2"`
		Option3 *string `json:"option3"`
	} `json:"variants"`
	Images []struct {
		ID         int64   `json:"id"`
		Src        string  `json:"src"`
		Alt        *string `json:"alt"`
		VariantIDs []int64 `json:"variant_ids"`
	} `json:"images"`
}

func loadShopify(t *testing.T) map[string][]*product.Product {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "shopify", "*.json"))
	if len(files) == 0 {
		t.Skip("shopify corpus absent")
	}
	out := map[string][]*product.Product{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list []shopifyProduct
		if err := json.Unmarshal(b, &list); err != nil {
			var wrapped struct{ Products []shopifyProduct }
			if err2 := json.Unmarshal(b, &wrapped); err2 != nil {
				t.Fatalf("%s: %v", f, err)
			}
			list = wrapped.Products
		}
		for _, s := range list {
			p := &product.Product{Title: sp(s.Title), DescriptionHTML: sp(s.BodyHTML), ProductType: sp(s.ProductType)}
			switch tags := s.Tags.(type) {
			case string:
				for _, x := range strings.Split(tags, ",") {
					p.Tags = append(p.Tags, strings.TrimSpace(x))
				}
			case []any:
				for _, x := range tags {
					p.Tags = append(p.Tags, fmt.Sprint(x))
				}
			}
			for _, o := range s.Options {
				p.Options = append(p.Options, product.Option{Name: o.Name, Values: o.Values})
			}
			for _, v := range s.Variants {
				pv := product.Variant{ID: fmt.Sprint(v.ID), Options: map[string]string{}}
				for i, val := range []*string{v.Option1, v.Option2, v.Option3} {
					if val != nil && i < len(s.Options) {
						pv.Options[s.Options[i].Name] = *val
					}
				}
				p.Variants = append(p.Variants, pv)
			}
			for _, im := range s.Images {
				img := product.Image{ID: fmt.Sprint(im.ID), URL: im.Src, AltText: im.Alt}
				for _, id := range im.VariantIDs {
					img.VariantIDs = append(img.VariantIDs, fmt.Sprint(id))
				}
				p.Images = append(p.Images, img)
			}
			out[filepath.Base(f)] = append(out[filepath.Base(f)], p)
		}
	}
	return out
}

// On real catalogs: enrichment is deterministic, quotes only the store's words, and finds
// a category for most products. Coverage is logged, not asserted, beyond a floor.
func TestShopifyCorpus(t *testing.T) {
	var total, categorized int
	for file, products := range loadShopify(t) {
		var withCategory, withMaterial, withColor, tagged int
		for _, p := range products {
			r := Enrich(p, Evidence{})
			a, _ := json.Marshal(r)
			b, _ := json.Marshal(Enrich(p, Evidence{}))
			if !bytes.Equal(a, b) {
				t.Fatalf("%s %q: not deterministic", file, *p.Title)
			}
			input := fold(*p.Title + " " + parseHTML(*p.DescriptionHTML).text + " " + strings.Join(p.Tags, " "))
			for _, o := range p.Options {
				input += " " + fold(strings.Join(o.Values, " "))
			}
			at := r.Attributes
			if at.Summary != nil && !strings.Contains(squash(input), fold(*at.Summary)) {
				t.Errorf("%s %q: summary %q not in the description", file, *p.Title, *at.Summary)
			}
			if at.Material != nil {
				withMaterial++
				if !strings.Contains(input, fold(at.Material.MerchantLabel)) {
					t.Errorf("%s %q: material label %q not in the input", file, *p.Title, at.Material.MerchantLabel)
				}
			}
			if at.Color != nil {
				withColor++
				if !strings.Contains(input, fold(at.Color.MerchantLabel)) {
					t.Errorf("%s %q: color label %q not in the input", file, *p.Title, at.Color.MerchantLabel)
				}
			}
			if r.CategoryID != nil {
				withCategory++
			}
			for _, tags := range ImageTags(p) {
				if len(tags) > 0 {
					tagged++
					break
				}
			}
		}
		n := len(products)
		t.Logf("%s: %d products; category %d, material %d, color %d, image tags %d", file, n, withCategory, withMaterial, withColor, tagged)
		total += n
		categorized += withCategory
	}
	// The French catalog uses words outside the (mostly English) vocabulary: it is
	// expected to stay uncategorized, so the floor is over all catalogs together.
	if categorized*3 < total*2 {
		t.Errorf("category for only %d of %d products", categorized, total)
	}
}

var jsonldScript = regexp.MustCompile(`(?is)<script[^>]*application/ld\+json[^>]*>(.*?)</script>`)

// On saved benchmark pages: the JSON-LD readers never panic, ratings stay within their
// scale, and stated properties come out of the page.
func TestBenchmarkPagesJSONLD(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "product-extraction-benchmark", "html", "*.html.gz"))
	if len(files) == 0 {
		t.Skip("benchmark pages absent")
	}
	var withReviews, withProps int
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			fh.Close()
			continue
		}
		page, _ := io.ReadAll(zr)
		fh.Close()
		var docs []any
		for _, m := range jsonldScript.FindAllSubmatch(page, -1) {
			var v any
			if json.Unmarshal(bytes.TrimSpace(m[1]), &v) == nil {
				docs = append(docs, v)
			}
		}
		if r := ReviewsFromJSONLD(docs); r != nil {
			withReviews++
			if r.AverageRating != nil && (r.RatingScale == nil || *r.AverageRating > *r.RatingScale) {
				t.Errorf("%s: rating %v above scale %v", filepath.Base(f), *r.AverageRating, r.RatingScale)
			}
			for _, rv := range r.Reviews {
				if rv.Rating != nil && *rv.Rating > *r.RatingScale {
					t.Errorf("%s: review rating %v above scale %v", filepath.Base(f), *rv.Rating, *r.RatingScale)
				}
			}
		}
		if len(PropertiesFromJSONLD(docs)) > 0 {
			withProps++
		}
	}
	t.Logf("%d pages: reviews block on %d, stated properties on %d", len(files), withReviews, withProps)
}
