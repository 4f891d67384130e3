package enrich

import (
	"reflect"
	"testing"

	"github.com/stockroom/stockroom/core/product"
)

func TestImageTags(t *testing.T) {
	p := &product.Product{
		Options: []product.Option{{Name: "Color", Values: []string{"Frost", "Navy"}}},
		Variants: []product.Variant{
			{ID: "v1", Options: map[string]string{"Color": "Frost"}},
			{ID: "v2", Options: map[string]string{"Color": "Navy"}, ImageID: sp("i3")},
		},
		Images: []product.Image{
			{ID: "i1", URL: "https://cdn.example.com/files/Tumbler20OZ-Frost-Front_1024x1024.png?v=1"},
			{ID: "i2", URL: "https://cdn.example.com/files/IMG_2231.jpg", AltText: sp("Close-up of the lid, back view"), VariantIDs: []string{"v1"}},
			{ID: "i3", URL: "https://cdn.example.com/files/lifestyle-beach.jpg"},
			{ID: "i4", URL: "https://cdn.example.com/files/a1b2c3d4e5f6a7b8c9d0.jpg"},
		},
	}
	got := ImageTags(p)
	want := map[string][]string{
		"https://cdn.example.com/files/Tumbler20OZ-Frost-Front_1024x1024.png?v=1": {"front", "frost"},
		"https://cdn.example.com/files/IMG_2231.jpg":                              {"back", "detail", "frost"},
		"https://cdn.example.com/files/lifestyle-beach.jpg":                       {"blue", "lifestyle", "navy"},
		"https://cdn.example.com/files/a1b2c3d4e5f6a7b8c9d0.jpg":                  {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ImageTags =\n%v\nwant\n%v", got, want)
	}
}
