package html

import (
	"context"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

func TestTotalInReadsRangesAndPageCounts(t *testing.T) {
	for text, want := range map[string]int{
		"Showing 1–24 of 720 results":         720,
		"Showing 25-48 of 1,512 products":     1512,
		"Items 1-12 of 56":                    56,
		"Displaying 1 to 24 (of 96 products)": 96,
		"Zeige 1 – 24 von 1.200 Artikeln":     1200,
		"Mostrando 1 a 24 de 300":             300,
		"Showing page 2 of 30":                30 * 24,
		"Page 1 / 5":                          5 * 24,
		"Seite 3 von 4":                       4 * 24,
		"Showing page 30 of 30":               0, // the last page: nothing remains
		"Showing all 12 results":              0,
		"Page 2":                              0,
		"Showing 1–24 of 24 results":          0, // no more than this page
		"Products we love":                    0,
		"Showing 1–24 of many":                0,
	} {
		if got := totalIn(text, 24); got != want {
			t.Errorf("totalIn(%q) = %d, want %d", text, got, want)
		}
	}
}

// A page whose count is split into elements of its own is read whole; a page that says
// nothing of its size has no total, nor has the last page, nor a page whose call says the
// host knows it already. The guest answers as the native build does: the total crosses
// the ABI.
func TestListReportsTheTotalThePageStates(t *testing.T) {
	for name, mod := range map[string]adapter.Module{"native": sdk.Native(Adapter{}), "wasm": sdktest.Load(t, "guest", wasm.Config{})} {
		t.Run(name, func(t *testing.T) { testListTotal(t, mod) })
	}
}

func testListTotal(t *testing.T, mod adapter.Module) {
	const grid = `<ul><li class="item"><a href="/products/rake">Rake</a><span class="price">$9</span></li>
<li class="item"><a href="/products/hoe">Hoe</a><span class="price">$7</span></li></ul>`
	for name, c := range map[string]struct {
		page string
		want int
	}{
		"split count": {`<p class="toolbar-amount">Items <span>1</span>-<span>2</span> of <span>57</span></p>` + grid + `<a href="/all?page=2">Next</a>`, 57},
		"page count":  {`<div>Page 1 of 10</div>` + grid + `<a href="/all?page=2">Next</a>`, 20},
		"silent":      {grid + `<a href="/all?page=2">Next</a>`, 0},
		"last page":   {`<div>Showing 1–2 of 57</div>` + grid, 0},
	} {
		body := "<html><body>" + c.page + "</body></html>"
		set := &adapter.Set{Source: sdktest.Modules{mod}, Fetcher: sdktest.Pages{site + "/all": htmlDoc(site+"/all", body)}}
		got, err := set.List(context.Background(), "", site+"/all", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Listings) != 2 || got.Total != c.want {
			t.Errorf("%s: %d listings, total %d, want 2 and %d", name, len(got.Listings), got.Total, c.want)
		}
		// A total the host already knows is not read again: the answer leaves it out.
		got, err = set.List(context.Background(), "", site+"/all", "", 99)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Listings) != 2 || got.Total != 0 {
			t.Errorf("%s, total known: %d listings, total %d, want 2 and 0", name, len(got.Listings), got.Total)
		}
	}
}
