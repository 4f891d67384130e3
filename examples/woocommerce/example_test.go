package main

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/kit/kittest"
)

// TestSavedPages builds the adapter as an author would and runs `stockroom adapter test`
// over testdata, whose cases ask every operation the adapter implements.
func TestSavedPages(t *testing.T) {
	kittest.SavedPages(t, ".", "woocommerce-example", "testdata", true)
}
