//go:build !wasip1

package sdk_test

import (
	"context"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/core/adapter"
)

// resolver resolves the page's first link: in Extract with Call.Resolve, in List with
// Doc.Resolve and Call.Resolve.
type resolver struct{}

func (resolver) Info() sdk.Info { return sdk.Info{Name: "resolver", Version: "1.0.0"} }

func (resolver) Extract(c *sdk.Call) (*sdk.Product, error) {
	href := c.Page().HTML().FindOne("//a").Attr("href")
	return &sdk.Product{Images: []sdk.Image{{URL: c.Resolve(href), Position: 1}}}, nil
}

func (resolver) List(c *sdk.Call) (sdk.Page, error) {
	d := c.Need(c.URL())
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	href := d.HTML().FindOne("//a").Attr("href")
	return sdk.Page{Listings: []sdk.Listing{{URL: d.Resolve(href)}, {URL: c.Resolve(href)}}}, nil
}

// Links on a page that was redirected are relative to where it landed, not to the URL
// the call was given.
func TestResolveReadsLinksFromWhereThePageLanded(t *testing.T) {
	m := sdk.Native(resolver{})
	page := &adapter.Document{URL: "https://shop.example/go/123", FinalURL: "https://shop.example/products/kettle/",
		Status: 200, Body: []byte(`<a href="images/kettle.jpg">kettle</a>`)}
	resp, err := m.Call(context.Background(), &adapter.Request{Op: adapter.OpExtract, URL: page.URL, Docs: []*adapter.Document{page}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Product.Images[0].URL, "https://shop.example/products/kettle/images/kettle.jpg"; got != want {
		t.Errorf("Call.Resolve on a redirected page: %s, want %s", got, want)
	}

	collection := &adapter.Document{URL: "https://shop.example/c/7", FinalURL: "https://shop.example/category/mugs/",
		Status: 200, Body: []byte(`<a href="blue-mug">blue mug</a>`)}
	req := &adapter.Request{Op: adapter.OpList, URL: collection.URL}
	if _, err := m.Call(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	req.Docs, req.Round = []*adapter.Document{collection}, 1
	resp, err = m.Call(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// A list call's page is the first document it fetched.
	for i, l := range resp.Listings {
		if want := "https://shop.example/category/mugs/blue-mug"; l.URL != want {
			t.Errorf("listing %d, resolved on a redirected collection page: %s, want %s", i, l.URL, want)
		}
	}
}
