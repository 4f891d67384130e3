package demostore_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// Category pages page as ?p=N and, as Magento does, answer a page past the last with the
// last page.
func TestMagentoCategoriesPageAsMagentoDoes(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Magento, Products: 200, PageSize: 12}).Get(demostore.Magento)
	col := st.Catalog().Collections()[0]
	pages := st.CategoryPages(col.Handle)
	if pages < 2 {
		t.Fatalf("%s spans %d page: the test needs more", col.Handle, pages)
	}
	tile := regexp.MustCompile(`<li class="item product product-item">`)
	current := regexp.MustCompile(`(?s)<li class="item current">.*?<span>(\d+)</span>`)
	category := st.URL(st.CategoryPath(col.Handle))
	listed := 0
	for n := 1; n <= pages+1; n++ {
		page := getOK(t, category+"?p="+strconv.Itoa(n))
		m := current.FindStringSubmatch(page)
		if want := strconv.Itoa(min(n, pages)); m == nil || m[1] != want {
			t.Fatalf("?p=%d says it is page %v, want %s", n, m, want)
		}
		if n <= pages {
			listed += len(tile.FindAllString(page, -1))
		}
		if n == 1 && !strings.Contains(page, `Items <span class="toolbar-number">1</span>-<span class="toolbar-number">12</span> of <span class="toolbar-number">`+strconv.Itoa(len(col.Products))+`</span>`) {
			t.Errorf("page 1 lacks its toolbar amount")
		}
	}
	if listed != len(col.Products) {
		t.Errorf("%d tiles over %d pages, want %d", listed, pages, len(col.Products))
	}
	for u, want := range map[string]int{
		st.URL("/" + demostore.HandleMissing + ".html"): http.StatusNotFound,
		st.URL("/" + demostore.HandleMoved + ".html"):   http.StatusMovedPermanently,
		st.URL("/contact/"):                             http.StatusOK,
	} {
		if resp, _ := get(t, u); resp.StatusCode != want {
			t.Errorf("%s: %s, want %d", u, resp.Status, want)
		}
	}
}

// Product pages carry Luma's price box (data-price-amount, an old price on a sale) in
// pounds, and a configurable product's swatches are initialised with every child in
// jsonConfig's index, those in stock in its options' lists.
func TestMagentoProductPages(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Magento, Products: 120}).Get(demostore.Magento)
	config := regexp.MustCompile(`(?s)<script type="text/x-magento-init">\s*(\{"\*":\{"Magento_Swatches.*?)\s*</script>`)
	var sawSale, sawConfigurable bool
	for i := range 60 {
		p := st.Catalog().Product(i)
		page := getOK(t, st.URL(st.ProductPath(i)))
		if !strings.Contains(page, `class="catalog-product-view`) || !strings.Contains(page, `<meta property="product:price:currency" content="GBP"/>`) {
			t.Fatalf("product %d: no Luma product page", i)
		}
		simple := len(p.Options) == 1 && p.Options[0].Name == "Title"
		m := config.FindStringSubmatch(page)
		if !simple && p.Available() {
			if m == nil {
				t.Fatalf("product %d: configurable without jsonConfig", i)
			}
			sawConfigurable = true
			var init map[string]map[string]struct {
				JSONConfig struct {
					Index map[string]any `json:"index"`
				} `json:"jsonConfig"`
			}
			if err := json.Unmarshal([]byte(m[1]), &init); err != nil {
				t.Fatalf("product %d: %v", i, err)
			}
			if n := len(init["[data-role=swatch-options]"]["Magento_Swatches/js/swatch-renderer"].JSONConfig.Index); n != len(p.Variants) {
				t.Errorf("product %d: %d children, want %d", i, n, len(p.Variants))
			}
			continue
		}
		if m != nil {
			t.Errorf("product %d: jsonConfig on a simple or sold-out product", i)
		}
		if v := p.Variants[0]; simple && v.CompareAtPrice > v.Price {
			sawSale = true
			if !strings.Contains(page, `data-price-type="oldPrice"`) || !strings.Contains(page, "£"+v.CompareAtPrice.String()) {
				t.Errorf("product %d: no old price £%s", i, v.CompareAtPrice)
			}
		}
	}
	if !sawSale || !sawConfigurable {
		t.Errorf("first 60 products: sale %v, configurable %v", sawSale, sawConfigurable)
	}
}
