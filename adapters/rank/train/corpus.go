package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/core/adapter"
)

// corpus names the two development corpora.
const (
	benchmarkCorpus = "benchmark"
	retailCorpus    = "retail"
)

// labelledPage is a development page with what is known of its right values.
type labelledPage struct {
	ID, URL, Site, Corpus string
	Body                  []byte
	// truth holds, for the benchmark's pages, the accepted price, sku and availability
	// values as score.py reads them.
	truth quality.Truth
	// labelled says which fields the page's labels cover: a covered field without an
	// accepted value expects none.
	labelled [5]bool
	// currency is the ISO code of the page's currency, title the title a person marked;
	// "" when not labelled.
	currency, title string
	// retailPrice is a retail page's price; hasPrice is false when the page shows none.
	retailPrice string
}

// loadBenchmark reads the product-extraction-benchmark pages.
func loadBenchmark(dir string) ([]labelledPage, error) {
	truth, err := quality.LoadTruth(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		return nil, err
	}
	var raw map[string]struct {
		Currency []string `json:"currency"`
	}
	if err := readJSON(filepath.Join(dir, "ground-truth.json"), &raw); err != nil {
		return nil, err
	}
	var out []labelledPage
	for id, t := range truth {
		body, err := readGzip(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			return nil, err
		}
		p := labelledPage{ID: id, URL: t.URL, Site: rank.SiteOf(t.URL), Corpus: benchmarkCorpus, Body: body, truth: t}
		p.labelled[rank.Price], p.labelled[rank.SKU], p.labelled[rank.Availability] = true, true, true
		if cs := raw[id].Currency; len(cs) > 0 {
			if code := currencyOfSign(cs[0]); code != "" {
				p.currency, p.labelled[rank.Currency] = code, true
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// signCodes are the benchmark's currency annotations (signs as the pages show them) that
// name one currency; "$" and its kin name several and are left unlabelled.
var signCodes = map[string]string{"€": "EUR", "£": "GBP", "₹": "INR", "₽": "RUB", "zł": "PLN", "Lei": "RON", "Kn": "HRK",
	"CHF": "CHF", "BRL": "BRL", "NZD": "NZD", "EUR": "EUR", "ر.س": "SAR", "тг.": "KZT"}

func currencyOfSign(s string) string { return signCodes[strings.TrimSpace(s)] }

// loadRetail reads the retail-pages corpus.
func loadRetail(dir string) ([]labelledPage, error) {
	var entries []struct {
		Page     string `json:"page"`
		URL      string `json:"url"`
		Expected struct {
			Price    *json.Number `json:"price"`
			Currency string       `json:"currency"`
		} `json:"expected"`
		Title string `json:"labelled_title"`
	}
	if err := readJSON(filepath.Join(dir, "expected.json"), &entries); err != nil {
		return nil, err
	}
	var out []labelledPage
	for _, e := range entries {
		body, err := readGzip(filepath.Join(dir, e.Page))
		if err != nil {
			return nil, err
		}
		p := labelledPage{ID: strings.TrimSuffix(filepath.Base(e.Page), ".html.gz"), URL: e.URL, Site: rank.SiteOf(e.URL),
			Corpus: retailCorpus, Body: body, title: e.Title, currency: e.Expected.Currency}
		p.labelled[rank.Price], p.labelled[rank.Title] = true, true
		p.labelled[rank.Currency] = p.currency != ""
		if e.Expected.Price != nil {
			p.retailPrice = e.Expected.Price.String()
		}
		out = append(out, p)
	}
	return out, nil
}

func readJSON(file string, v any) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

func readGzip(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return io.ReadAll(zr)
}

// sortPages orders pages by corpus and id, so that every run sees them alike.
func sortPages(pages []labelledPage) {
	sort.Slice(pages, func(i, j int) bool {
		if pages[i].Corpus != pages[j].Corpus {
			return pages[i].Corpus < pages[j].Corpus
		}
		return pages[i].ID < pages[j].ID
	})
}

// gatherer is an adapter that only gathers the ranker's candidates, run natively so that
// the training reads pages exactly as the guest does.
type gatherer struct{ page **rank.Page }

func (gatherer) Info() sdk.Info { return sdk.Info{Name: "rank-gather", Version: "0.0.0"} }

func (g gatherer) Extract(c *sdk.Call) (*sdk.Product, error) {
	*g.page = rank.Gather(c)
	return nil, sdk.NonProduct("candidates gathered")
}

// gatherAll reads every page's candidates.
func gatherAll(ctx context.Context, pages []labelledPage) ([]*rank.Page, error) {
	var got *rank.Page
	mod := sdk.Native(gatherer{&got})
	out := make([]*rank.Page, len(pages))
	for i, p := range pages {
		got = nil
		doc := &adapter.Document{URL: p.URL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: p.Body}
		if _, err := mod.Call(ctx, &adapter.Request{Op: adapter.OpExtract, URL: p.URL, Docs: []*adapter.Document{doc}}); err != nil {
			return nil, fmt.Errorf("gather %s: %w", p.ID, err)
		}
		if got == nil {
			got = &rank.Page{}
		}
		out[i] = got
	}
	return out, nil
}

// right reports whether a candidate holds page p's right value for its field.
func (p *labelledPage) right(c *rank.Candidate) bool {
	switch c.Field {
	case rank.Price:
		if p.Corpus == retailCorpus {
			return p.retailPrice != "" && sameAmount(p.retailPrice, c.Value)
		}
		for _, a := range p.truth.Price {
			if sameAmount(a, c.Value) {
				return true
			}
		}
	case rank.SKU:
		for _, s := range p.truth.SKU {
			if s == c.Value {
				return true
			}
		}
	case rank.Availability:
		for _, a := range p.truth.Availability {
			if a == c.Value {
				return true
			}
		}
	case rank.Currency:
		return p.currency != "" && p.currency == c.Value
	case rank.Title:
		return titleMatches(c.Value, p.title, p.URL)
	}
	return false
}

// sameAmount compares two decimal amounts.
func sameAmount(a, b string) bool {
	x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	return err1 == nil && err2 == nil && x == y
}
