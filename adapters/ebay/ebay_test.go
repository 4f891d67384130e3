package ebay

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/kit/kittest"
)

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does: small pages of what the development corpora do not hold
// (the newer x- layout with a struck list price, an ended listing on ebay.de without
// microdata, a search page).
func TestSavedPages(t *testing.T) {
	kittest.SavedPages(t, "guest", "ebay", "testdata", false)
}
