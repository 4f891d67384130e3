package wire

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
)

func TestSpliceReplacesMembers(t *testing.T) {
	old := "old"
	resp := &adapter.Response{Product: &product.Product{Title: &old, Description: &old, Images: []product.Image{{URL: "x"}}}}
	err := Splice(resp, []Member{
		{Name: "product.images", Raw: `[{"url":"https://a/1.jpg","position":1},{"url":"https://a/2.jpg","variant_ids":["7"]}]`},
		{Name: "product.variants", Raw: `[{"id":"7","is_available":true,"price":{"current_value":9.5,"currency":"EUR"},"options":{"Size":"M"}}]`},
		{Name: "product.description", Raw: ""},
		{Name: "listings", Raw: `[{"url":"https://a/p/1","title":"One"}]`},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := resp.Product
	if len(p.Images) != 2 || p.Images[1].VariantIDs[0] != "7" || p.Images[0].Position != 1 {
		t.Errorf("images = %+v", p.Images)
	}
	if len(p.Variants) != 1 || !*p.Variants[0].IsAvailable || p.Variants[0].Price.Current != 9.5 || p.Variants[0].Options["Size"] != "M" {
		t.Errorf("variants = %+v", p.Variants)
	}
	if p.Description != nil {
		t.Errorf("a spliced missing description left %q", *p.Description)
	}
	if *p.Title != "old" {
		t.Errorf("a member not spliced changed: title %q", *p.Title)
	}
	if len(resp.Listings) != 1 || resp.Listings[0].Title != "One" {
		t.Errorf("listings = %+v", resp.Listings)
	}
}

func TestSpliceRefusesWhatDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		m    Member
		want string
	}{
		{Member{Name: "product.title", Raw: `"x"`}, "not a member it takes"},
		{Member{Name: "product.images", Raw: `[{"url":1}]`}, "image.url"},
		{Member{Name: "product.variants", Raw: `{"id":"1"}`}, "variants"},
	} {
		resp := &adapter.Response{Product: &product.Product{}}
		err := Splice(resp, []Member{tc.m})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Splice(%+v) error = %v, want one saying %q", tc.m, err, tc.want)
		}
	}
}

func TestSpliceWithoutAProductKeepsTheOutcome(t *testing.T) {
	resp := &adapter.Response{Outcome: adapter.NonProductURL}
	if err := Splice(resp, []Member{{Name: "product.images", Raw: `[{"url":"u"}]`}}); err != nil || resp.Product != nil {
		t.Fatalf("Splice = %v, product %+v", err, resp.Product)
	}
}

// Listings the plain decoder does not take (escapes, a member named in capitals) are read
// by the general decoder, as in a whole answer.
func TestSpliceReadsListingsInAnyForm(t *testing.T) {
	for _, raw := range []string{
		`[{"url":"https://a/p/1","title":"One","record":{"id":1}}]`,
		`[{"url":"https://a/p/1","title":"\u004fne","record":{"id":1}}]`,
		`[{"URL":"https://a/p/1","Title":"One","record":{"id":1}}]`,
	} {
		resp := &adapter.Response{}
		if err := Splice(resp, []Member{{Name: "listings", Raw: raw}}); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if len(resp.Listings) != 1 || resp.Listings[0].URL != "https://a/p/1" || resp.Listings[0].Title != "One" || string(resp.Listings[0].Record) != `{"id":1}` {
			t.Errorf("%s: listings = %+v", raw, resp.Listings)
		}
	}
}
