package quality

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// The development corpora, by the name their pages carry as Source.
const (
	// Benchmark is the product-extraction-benchmark's development half: price, SKU and
	// availability labels, scored by F1 with the benchmark's rule.
	Benchmark = "product-extraction-benchmark"
	// Retail is the retail-pages corpus: title, price and currency labels, scored by the
	// share of pages an extractor gets right.
	Retail = "retail-pages"
)

// Page is a saved product page as an extractor sees it: no labels.
type Page struct {
	// ID names the page uniquely across the corpora.
	ID string
	// Source is the corpus the page comes from (Benchmark or Retail).
	Source string
	// Site is the store the page belongs to (see SiteOf); cross-validation never splits a
	// site between training and held-out pages.
	Site string
	URL  string
	Body []byte
}

// Labels are what a person marked on a page. A field left empty was not labelled.
type Labels struct {
	// Price holds the accepted prices as decimal strings; empty when the page shows no
	// price (or, on the benchmark, when none was annotated).
	Price []string
	// SKU and Availability (InStock or OutOfStock) hold the benchmark's accepted values.
	SKU          []string
	Availability []string
	// Title is the text a person marked as the title (retail pages): usually the page's
	// <title>, store name included; TitleMatches compares a prediction with it.
	Title string
	// Currency is the price's ISO 4217 code where the page makes it certain (retail
	// pages; the benchmark annotates symbols, not codes, and is not read for it).
	Currency string
}

// LabelledPage is a development page with its labels: what a Learner trains on.
type LabelledPage struct {
	Page
	Labels Labels
}

// SiteOf names the store a page address belongs to: its registrable domain without the
// public suffix, so www.amazon.fr and www.amazon.com are both "amazon". Grouping a store's
// country sites together keeps a rule fitted on one of them from being scored on another
// as if it had never seen the store. An address without a registrable domain (an IP, a
// bare host) is named by its host.
func SiteOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return rawURL
	}
	host := strings.ToLower(u.Hostname())
	domain, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	name, _, _ := strings.Cut(domain, ".")
	return name
}

// LoadBenchmark reads the product-extraction-benchmark corpus in dir: ground-truth.json
// and html/ID.html.gz. Pages are in id order.
func LoadBenchmark(dir string) ([]LabelledPage, error) {
	var truth map[string]struct {
		URL          string   `json:"url"`
		Price        []string `json:"price"`
		SKU          []string `json:"sku"`
		Availability []string `json:"availability"`
	}
	if err := readJSON(filepath.Join(dir, "ground-truth.json"), &truth); err != nil {
		return nil, err
	}
	pages := make([]LabelledPage, 0, len(truth))
	for id, t := range truth {
		body, err := readGzip(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			return nil, err
		}
		pages = append(pages, LabelledPage{
			Page:   Page{ID: id, Source: Benchmark, Site: SiteOf(t.URL), URL: t.URL, Body: body},
			Labels: Labels{Price: t.Price, SKU: t.SKU, Availability: t.Availability},
		})
	}
	sortByID(pages)
	return pages, nil
}

// LoadRetail reads the retail-pages corpus in dir: expected.json and the pages it names.
// A page's id is its file name without extensions ("adidas"). Pages are in id order.
func LoadRetail(dir string) ([]LabelledPage, error) {
	var entries []struct {
		Page     string `json:"page"`
		URL      string `json:"url"`
		Title    string `json:"labelled_title"`
		Expected struct {
			// The price is read as written, so it compares as the decimal it is.
			Price    json.Number `json:"price"`
			Currency string      `json:"currency"`
		} `json:"expected"`
	}
	if err := readJSON(filepath.Join(dir, "expected.json"), &entries); err != nil {
		return nil, err
	}
	pages := make([]LabelledPage, 0, len(entries))
	for _, e := range entries {
		body, err := readGzip(filepath.Join(dir, e.Page))
		if err != nil {
			return nil, err
		}
		id, _, _ := strings.Cut(filepath.Base(e.Page), ".")
		labels := Labels{Title: e.Title, Currency: e.Expected.Currency}
		if e.Expected.Price != "" {
			labels.Price = []string{e.Expected.Price.String()}
		}
		pages = append(pages, LabelledPage{
			Page:   Page{ID: id, Source: Retail, Site: SiteOf(e.URL), URL: e.URL, Body: body},
			Labels: labels,
		})
	}
	sortByID(pages)
	return pages, nil
}

func sortByID(pages []LabelledPage) {
	sort.Slice(pages, func(i, j int) bool { return pages[i].ID < pages[j].ID })
}

func readGzip(file string) ([]byte, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return body, nil
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
