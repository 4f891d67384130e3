// Package quality measures how well extractors read the development pages: the 73 pages of
// the product-extraction-benchmark (price, SKU and availability) and the 20 pages of the
// retail-pages corpus (title, price and currency). It reports two figures per field: the
// fitted one, with every learned part trained on all pages, and the cross-validated one,
// with the pages split by site into folds and each fold predicted by parts trained on the
// others. The second is what a page nobody here has seen can expect.
//
// The benchmark's attributes are scored as its score.py does: one predicted value per page;
// a hit when it is among the page's accepted values (prices compared as decimals); a wrong
// value is a false positive and, where a value was expected, also a false negative; a
// missing value where one was expected is a false negative.
package quality

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/core/product"
)

// Attributes are the benchmark's scored attributes, in the order score.py prints them.
var Attributes = []string{"price", "sku", "availability"}

// Prediction is what an extractor said about one page, in the benchmark's file shape
// (score.py reads price, sku and availability and ignores the rest): prices as decimal
// strings, availability as InStock or OutOfStock; "" means no value.
type Prediction struct {
	Price        string `json:"price,omitempty"`
	Currency     string `json:"currency,omitempty"`
	SKU          string `json:"sku,omitempty"`
	Availability string `json:"availability,omitempty"`
	Title        string `json:"title,omitempty"`
}

// Of renders an extracted product as a prediction. A nil product predicts nothing.
func Of(p *product.Product) Prediction {
	var out Prediction
	if p == nil {
		return out
	}
	if p.Price != nil {
		out.Price = strconv.FormatFloat(p.Price.Current, 'f', -1, 64)
		out.Currency = p.Price.Currency
	}
	if p.Title != nil {
		out.Title = *p.Title
	}
	if p.SKU != nil {
		out.SKU = *p.SKU
	}
	if p.IsAvailable != nil {
		out.Availability = "OutOfStock"
		if *p.IsAvailable {
			out.Availability = "InStock"
		}
	}
	return out
}

func (p Prediction) get(attr string) string {
	switch attr {
	case "price":
		return p.Price
	case "sku":
		return p.SKU
	case "availability":
		// score.py's normalisation of other extractors' spellings.
		switch strings.ToLower(strings.ReplaceAll(p.Availability, " ", "")) {
		case "instock", "in_stock":
			return "InStock"
		case "outofstock", "out_of_stock":
			return "OutOfStock"
		}
		return p.Availability
	}
	return ""
}

// LoadPredictions reads a prediction file (ours, or another extractor's output).
func LoadPredictions(file string) (map[string]Prediction, error) {
	var pred map[string]Prediction
	if err := readJSON(file, &pred); err != nil {
		return nil, err
	}
	return pred, nil
}

// F1 is the score of one attribute.
type F1 struct {
	TP, FP, FN            int
	F1, Precision, Recall float64
}

func (s F1) String() string {
	return fmt.Sprintf("F1 %.3f (P %.3f R %.3f)", s.F1, s.Precision, s.Recall)
}

// benchmarkF1 scores pred on the benchmark pages of pages for attr.
func benchmarkF1(pages []LabelledPage, pred map[string]Prediction, attr string) F1 {
	var s F1
	for _, p := range pages {
		if p.Source != Benchmark {
			continue
		}
		tp, fp, fn := Judge(attr, p.Labels.accepted(attr), pred[p.ID].get(attr))
		s.TP, s.FP, s.FN = s.TP+tp, s.FP+fp, s.FN+fn
	}
	s.F1, s.Precision, s.Recall = f1(s.TP, s.FP, s.FN)
	return s
}

func (l Labels) accepted(attr string) []string {
	switch attr {
	case "price":
		return l.Price
	case "sku":
		return l.SKU
	case "availability":
		return l.Availability
	}
	return nil
}

// Judge counts one page's prediction for attr: (1,0,0) a hit, (0,1,1) a wrong value where
// one was expected, (0,1,0) a value where none was, (0,0,1) a miss, (0,0,0) nothing either
// way.
func Judge(attr string, accepted []string, predicted string) (tp, fp, fn int) {
	expected := 0
	if len(accepted) > 0 {
		expected = 1
	}
	if predicted == "" {
		return 0, 0, expected
	}
	hit := false
	if attr == "price" {
		p := decimal(predicted)
		if p == nil {
			// score.py turns an unparseable price into no prediction.
			return 0, 0, expected
		}
		for _, a := range accepted {
			if d := decimal(a); d != nil && d.Cmp(p) == 0 {
				hit = true
			}
		}
	} else {
		for _, a := range accepted {
			hit = hit || a == predicted
		}
	}
	if hit {
		return 1, 0, 0
	}
	return 0, 1, expected
}

// decimal parses s as Python's Decimal does for the values that occur (white space around,
// an exponent), exactly; nil when it is not a number.
func decimal(s string) *big.Rat {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "/_") {
		return nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}

// f1 is score.py's f1: precision and recall are 1 when nothing was wrong or missed.
func f1(tp, fp, fn int) (f, p, r float64) {
	switch {
	case fp == 0 && fn == 0:
		p, r = 1, 1
	default:
		if tp+fp > 0 {
			p = float64(tp) / float64(tp+fp)
		}
		if tp+fn > 0 {
			r = float64(tp) / float64(tp+fn)
		}
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return f, p, r
}
