package jsonld

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/kit/kittest"
)

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does.
func TestSavedPages(t *testing.T) {
	kittest.SavedPages(t, "guest", "jsonld", "testdata", false)
}
