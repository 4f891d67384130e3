package kit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

// New writes a new adapter named name into dir: a guest that builds with the standard Go
// toolchain, a manifest, and saved pages with what each operation must answer for them,
// which it passes. When dir is outside the
// Stockroom module, stockroomRoot (the module's directory) is needed so the adapter's
// go.mod can point at the SDK offline.
func New(name, dir, stockroomRoot string) error {
	if !validName(name) {
		return fmt.Errorf("adapter name %q: use lower-case letters, digits and dashes, starting with a letter", name)
	}
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s already exists", dir)
	}
	files := map[string]string{
		"main.go":                         scaffoldMain,
		name + ".json":                    scaffoldManifest,
		"testdata/example.html":           scaffoldPage,
		"testdata/example.expected.json":  scaffoldExpected,
		"testdata/category.html":          scaffoldCategory,
		"testdata/category.expected.json": scaffoldCategoryExpected,
		"testdata/home.html":              scaffoldHome,
		"testdata/home.expected.json":     scaffoldHomeExpected,
		"README.md":                       scaffoldReadme,
	}
	inModule := false
	if abs, err := filepath.Abs(dir); err == nil {
		inModule = moduleRootAbove(abs) != ""
	}
	if !inModule {
		if stockroomRoot == "" {
			return errors.New("the adapter is outside the Stockroom module: pass --stockroom DIR (the Stockroom source checkout) so its go.mod can use the SDK")
		}
		root, err := filepath.Abs(stockroomRoot)
		if err != nil {
			return err
		}
		mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err != nil {
			return fmt.Errorf("read the Stockroom go.mod: %w", err)
		}
		// The adapter needs at least the Go version Stockroom requires.
		goVersion := "1.26"
		for _, line := range strings.Split(string(mod), "\n") {
			if v, ok := strings.CutPrefix(line, "go "); ok {
				goVersion = strings.TrimSpace(v)
			}
		}
		files["go.mod"] = fmt.Sprintf("module example.com/%s\n\ngo %s\n\nrequire github.com/stockroom/stockroom v0.0.0\n\nreplace github.com/stockroom/stockroom => %s\n", name, goVersion, root)
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			return fmt.Errorf("read the Stockroom go.sum: %w", err)
		}
		files["go.sum"] = string(sum)
	}
	data := struct{ Name, Ident string }{name, strings.ReplaceAll(name, "-", "_")}
	for file, text := range files {
		var buf bytes.Buffer
		if err := template.Must(template.New(file).Delims("[[", "]]").Parse(text)).Execute(&buf, data); err != nil {
			return err
		}
		path := filepath.Join(dir, file)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// moduleRootAbove returns the directory of the Stockroom go.mod at or above dir, or "".
func moduleRootAbove(dir string) string {
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if strings.Contains(string(b), "module github.com/stockroom/stockroom\n") {
				return dir
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

const scaffoldMain = `// Command [[.Name]] is a Stockroom adapter. Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o [[.Name]].wasm .
//
// and test it with
//
//	stockroom adapter test [[.Name]].wasm testdata
//
// See adapters/ABI.md in the Stockroom repository for the contract.
package main

import (
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

type adapter struct{}

func (adapter) Info() sdk.Info {
	return sdk.Info{Name: "[[.Name]]", Version: "0.1.0", Platforms: []string{"[[.Name]]"}}
}

// Detect claims pages whose generator meta tag names the platform.
func (adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	gen := c.Page().HTML().FindOne("//meta[@name='generator']").Attr("content")
	if !strings.Contains(strings.ToLower(gen), "[[.Name]]") {
		return nil, nil
	}
	return &sdk.Detection{Platform: "[[.Name]]", Confidence: 0.9, Evidence: []string{"generator " + gen}}, nil
}

// Discover reads the category links of the home page's menu.
func (adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	var out []sdk.Collection
	for _, a := range c.Page().HTML().Select("nav.categories a[href]") {
		out = append(out, sdk.Collection{URL: c.Resolve(a.Attr("href")), Title: a.Text()})
	}
	return out, nil
}

// List reads one page of a category: its product tiles and the link to the next page.
// The cursor is the URL of the page to read; "" is the category's first page.
func (adapter) List(c *sdk.Call) (sdk.Page, error) {
	pageURL := c.Cursor()
	if pageURL == "" {
		pageURL = c.URL()
	}
	d := c.Need(pageURL)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		return sdk.Page{}, sdk.Fail("category page %s: %s", pageURL, d.Failure())
	}
	root := d.HTML()
	currency := sdk.PageLocale(d, pageURL).Currency() // what a price without a symbol is in
	var page sdk.Page
	for _, tile := range root.Select("[data-product-tile]") {
		l := sdk.Listing{
			URL:   d.Resolve(tile.SelectOne("a[href]").Attr("href")),
			ID:    tile.Attr("data-product-tile"),
			Title: tile.SelectOne("h2").Text(),
		}
		if amount, cur, ok := sdk.ParseAmount(tile.SelectOne(".price").Text(), currency); ok {
			l.Price = &sdk.Price{Current: amount, Currency: cur}
		}
		page.Listings = append(page.Listings, l)
	}
	if next, ok := root.SelectOne("a[rel=next]").AttrOK("href"); ok {
		page.Next = d.Resolve(next)
	}
	return page, nil
}

// Extract reads the product block of the page.
func (adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	root := c.Page().HTML()
	box := root.FindOne("//*[@data-product]")
	if !box.Exists() {
		return nil, sdk.NonProduct("no product block")
	}
	p := &sdk.Product{ID: box.Attr("data-product")}
	if t := box.TextOf(".//h1"); t != "" {
		p.Title = &t
	}
	if sku := box.TextOf(".//*[@class='sku']"); sku != "" {
		p.SKU = &sku
	}
	if amount, ok := root.FindOne("//meta[@property='product:price:amount']").AttrOK("content"); ok {
		if f, err := strconv.ParseFloat(strings.TrimSpace(amount), 64); err == nil {
			cur := root.FindOne("//meta[@property='product:price:currency']").Attr("content")
			p.Price = &sdk.Price{Current: f, Currency: cur}
		}
	}
	inStock := box.FindOne(".//*[@class='stock in-stock']").Exists()
	p.IsAvailable = &inStock
	return p, nil
}

func init() { sdk.Serve(adapter{}) }

func main() {}
`

const scaffoldManifest = `{"name": "[[.Name]]", "version": "0.1.0", "priority": 10}
`

const scaffoldPage = `<!doctype html>
<html><head>
<meta name="generator" content="[[.Name]] 1.0">
<meta property="product:price:amount" content="24.50">
<meta property="product:price:currency" content="EUR">
</head><body>
<div data-product="1001"><h1>Example mug</h1><span class="sku">MUG-1</span>
<p class="stock in-stock">In stock</p></div>
</body></html>
`

const scaffoldExpected = `{
  "url": "https://shop.example/products/example-mug",
  "detect": {"platform": "[[.Name]]", "confidence": 0.9},
  "extract": {
    "product": {
      "id": "1001",
      "title": "Example mug",
      "sku": "MUG-1",
      "is_available": true,
      "price": {"current_value": 24.5, "compare_at_value": null, "currency": "EUR"}
    }
  }
}
`

const scaffoldCategory = `<!doctype html>
<html lang="en-GB"><head><meta name="generator" content="[[.Name]] 1.0"></head>
<body><ul class="products">
<li data-product-tile="1001"><a href="/products/example-mug"><h2>Example mug</h2></a><span class="price">£24.50</span></li>
<li data-product-tile="1002"><a href="/products/example-plate"><h2>Example plate</h2></a><span class="price">£18.00</span></li>
</ul>
<a rel="next" href="/category/mugs?page=2">Next</a>
</body></html>
`

const scaffoldCategoryExpected = `{
  "url": "https://shop.example/category/mugs",
  "list": {
    "listings": [
      {"url": "https://shop.example/products/example-mug", "id": "1001", "title": "Example mug",
       "price": {"current_value": 24.5, "currency": "GBP"}},
      {"url": "https://shop.example/products/example-plate", "id": "1002", "title": "Example plate",
       "price": {"current_value": 18, "currency": "GBP"}}
    ],
    "next": "https://shop.example/category/mugs?page=2"
  },
  "extract": {"outcome": "non_product_url"}
}
`

const scaffoldHome = `<!doctype html>
<html lang="en-GB"><head><meta name="generator" content="[[.Name]] 1.0"></head>
<body><nav class="categories"><a href="/category/mugs">Mugs</a> <a href="/category/plates">Plates</a></nav>
</body></html>
`

const scaffoldHomeExpected = `{
  "url": "https://shop.example/",
  "detect": {"platform": "[[.Name]]"},
  "discover": {
    "adapter": "[[.Name]]",
    "collections": [
      {"url": "https://shop.example/category/mugs", "title": "Mugs"},
      {"url": "https://shop.example/category/plates", "title": "Plates"}
    ]
  }
}
`

const scaffoldReadme = "# [[.Name]] adapter\n\n" +
	"Build it, test it on the saved pages of testdata (each NAME.expected.json says what detect, " +
	"discover, list and extract must answer for NAME.html), and see what the service would make " +
	"of a page with it beside the built-in adapters:\n\n" +
	"```\nGOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o [[.Name]].wasm .\n" +
	"stockroom adapter test [[.Name]].wasm testdata\n" +
	"stockroom adapter run --op list --url https://shop.example/category/mugs --file testdata/category.html --adapter [[.Name]].wasm\n" +
	"stockroom adapter run --url https://shop.example/products/example-mug --file testdata/example.html --adapter [[.Name]].wasm\n```\n\n" +
	"Install it into the service's adapters folder (its `adapters.dir`), which writes its manifest " +
	"with the module's version and sha256:\n\n" +
	"```\nstockroom adapter install --adapters /path/to/adapters [[.Name]].wasm\n```\n\n" +
	"See \"Authoring kit\" in adapters/ABI.md of the Stockroom repository.\n"
