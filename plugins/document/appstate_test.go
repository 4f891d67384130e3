package document

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/core/adapter"
)

// appState scans body and returns its state objects.
func appState(t testing.TB, body string) []gjson.Result {
	t.Helper()
	s := NewSession([]*adapter.Document{{Body: []byte(body)}}, 0)
	v, err := s.AppState(0)
	if err != nil {
		t.Fatal(err)
	}
	raw := s.Raw(v)
	if !gjson.Valid(raw) || !gjson.Parse(raw).IsArray() {
		t.Fatalf("app state %q is not a JSON array", raw)
	}
	return gjson.Parse(raw).Array()
}

// where names an object by its source, name and path.
func where(o gjson.Result) string {
	return o.Get("source").String() + " " + o.Get("name").String() + " " + o.Get("path").String()
}

func TestAppStateFindsProductObjectsInEachSource(t *testing.T) {
	for _, tc := range []struct {
		name string
		page string
		// want is each object's source, name and path, in order.
		want []string
		// field is a path into the first object's JSON and its expected text.
		field, value string
	}{
		{
			name: "next.js",
			page: `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"product":{"name":"Mug","price":{"amount":"12.50","currency":"EUR"},
				"variants":[{"name":"Mug S","price":12.5}]}}},"page":"/p/[slug]"}</script>`,
			want:  []string{"next __NEXT_DATA__ props.pageProps.product"},
			field: "price.amount", value: "12.50",
		},
		{
			name:  "nuxt json",
			page:  `<script>window.__NUXT__={"data":[{"product":{"title":"Lamp","price":30}}]};</script>`,
			want:  []string{"nuxt __NUXT__ data.0.product"},
			field: "title", value: "Lamp",
		},
		{
			name:  "nuxt javascript literal",
			page:  `<script>window.__NUXT__={data:[{product:{title:'Lamp \'Arc\'',price:.5e2,sku:"L-1",stock:!0,old:void 0}}]};</script>`,
			want:  []string{"nuxt __NUXT__ data.0.product"},
			field: "@this", value: `{"title":"Lamp 'Arc'","price":50,"sku":"L-1","stock":true,"old":null}`,
		},
		{
			name: "nuxt function payload",
			page: `<script>window.__NUXT__=(function(a,b,c,d){return {layout:"default",data:[{product:{name:a,price:b,available:!0,images:[c],brand:d}}],
				state:{cart:{items:[]}}}}("Desk lamp",49.9,"https:\u002F\u002Fshop.example\u002Fa.jpg"));</script>`,
			want:  []string{"nuxt __NUXT__ data.0.product"},
			field: "@this", value: `{"name":"Desk lamp","price":49.9,"available":true,"images":["https://shop.example/a.jpg"],"brand":null}`,
		},
		{
			name: "nuxt 3 payload",
			page: `<script type="application/json" id="__NUXT_DATA__" data-ssr="true">[["ShallowReactive",1],{"data":2,"state":8},["ShallowReactive",3],
				{"product-1":4},{"name":5,"price":6,"tags":7},"Chair",99,["Set",5],["Reactive",9],{}]</script>`,
			want:  []string{"nuxt __NUXT_DATA__ data.product-1"},
			field: "@this", value: `{"name":"Chair","price":99,"tags":["Chair"]}`,
		},
		{
			name:  "initial state",
			page:  `<script>window.__INITIAL_STATE__ = {"product":{"productName":"Kettle","salePrice":"24,99"}};</script>`,
			want:  []string{"state __INITIAL_STATE__ product"},
			field: "salePrice", value: "24,99",
		},
		{
			name:  "preloaded state through JSON.parse",
			page:  `<script>window.__PRELOADED_STATE__ = JSON.parse("{\"pdp\":{\"item\":{\"title\":\"Toaster \\u00e9\",\"price\":19}}}");</script>`,
			want:  []string{"state __PRELOADED_STATE__ pdp.item"},
			field: "title", value: "Toaster é",
		},
		{
			name: "apollo cache",
			page: `<script>window["__APOLLO_STATE__"] = {"Product:123":{"__typename":"Product","id":"123","name":"Blender","price":{"__ref":"Money:1"}},
				"Money:1":{"__typename":"Money","amount":"59.00","currencyCode":"USD"},"ROOT_QUERY":{"product":{"__ref":"Product:123"}}};</script>`,
			want:  []string{"state __APOLLO_STATE__ Product:123"},
			field: "price.amount", value: "59.00",
		},
		{
			name:  "a window property",
			page:  `<script>var x = 1; window.productData = {"sku":"K-1","title":"Kite","variants":[]}</script>`,
			want:  []string{"state productData "},
			field: "sku", value: "K-1",
		},
		{
			name: "shopify theme product json",
			page: `<script type="application/json" data-product-json>{"id":1,"title":"Tee","handle":"tee","price":2500,
				"variants":[{"id":2,"title":"S","price":2500,"sku":"T-S"}]}</script>`,
			want:  []string{"json-script data-product-json "},
			field: "handle", value: "tee",
		},
		{
			name:  "json script by id",
			page:  `<script type="application/json" id="ProductJson-main">{"title":"Cap","price":1500}</script>`,
			want:  []string{"json-script ProductJson-main "},
			field: "title", value: "Cap",
		},
		{
			name:  "data attribute",
			page:  `<div class="product" data-product-json='{"name":"Sofa","price":"499.00"}' data-id="7"></div>`,
			want:  []string{"attribute data-product-json "},
			field: "price", value: "499.00",
		},
		{
			name: "magento configurable and price box",
			page: `<script type="text/x-magento-init">{"#product_addtocart_form":{"configurable":{"spConfig":{"attributes":{},
				"optionPrices":{"11":{"finalPrice":{"amount":39}}},"prices":{"finalPrice":{"amount":39}},"productId":"10"}}}}</script>
				<div data-role="priceBox" data-mage-init='{"priceBox":{"priceConfig":{"productId":"10","prices":{"finalPrice":{"amount":39,"adjustments":[]}}}}}'></div>`,
			want:  []string{`magento text/x-magento-init \#product_addtocart_form.configurable.spConfig`, "magento data-mage-init priceBox.priceConfig"},
			field: "prices.finalPrice.amount", value: "39",
		},
		{
			name:  "magento 1 product config",
			page:  `<script>var spConfig = new Product.Config({"attributes":{"92":{"id":"92"}},"basePrice":"39.0000","oldPrice":"49.0000","productId":"5"});</script>`,
			want:  []string{"magento Product.Config "},
			field: "oldPrice", value: "49.0000",
		},
		{
			name: "woocommerce variations",
			page: `<form class="variations_form" data-product_variations="[{&quot;display_price&quot;:20,&quot;display_regular_price&quot;:25,&quot;sku&quot;:&quot;W-1&quot;,&quot;is_in_stock&quot;:true},
				{&quot;display_price&quot;:22,&quot;sku&quot;:&quot;W-2&quot;,&quot;is_in_stock&quot;:false}]"></form>`,
			want:  []string{"woocommerce data-product_variations 0", "woocommerce data-product_variations 1"},
			field: "display_regular_price", value: "25",
		},
		{
			name:  "a listing's tiles, each offered",
			page:  `<script id="__NEXT_DATA__" type="application/json">{"props":{"items":[{"name":"A","price":1},{"name":"B","price":2}]}}</script>`,
			want:  []string{"next __NEXT_DATA__ props.items.0", "next __NEXT_DATA__ props.items.1"},
			field: "name", value: "A",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs := appState(t, "<html><body>"+tc.page+"</body></html>")
			var got []string
			for _, o := range objs {
				got = append(got, where(o))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("objects\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if v := objs[0].Get("object").Get(tc.field); v.String() != tc.value && v.Raw != tc.value {
				t.Errorf("%s = %s, want %s", tc.field, v.Raw, tc.value)
			}
		})
	}
}

func TestAppStateSkipsWhatIsNotProductState(t *testing.T) {
	for _, tc := range []struct{ name, page string }{
		{"javascript that is not JSON", `<script>window.__INITIAL_STATE__ = {product: {name: "Mug", price: 1}};</script>`},
		{"a local variable", `<script>var state = {"product":{"name":"Mug","price":1}};</script>`},
		{"a comparison", `<script>if (window.__X__ == {"name":"Mug","price":1}) {}</script>`},
		{"a menu", `<script>window.__MENU__ = {"items":[{"name":"Shop","url":"/shop"}]};</script>`},
		{"JSON-LD, which has its own query", `<script type="application/ld+json">{"@type":"Product","name":"Mug","offers":{"price":1}}</script>`},
		{"an attribute of no product", `<div data-config='{"name":"slider","price":1}'></div>`},
		{"a function payload doing more than return", `<script>window.__NUXT__=(function(a){a.x=1;return {product:{name:a,price:1}}}({}));</script>`},
		{"an unknown identifier", `<script>window.__NUXT__={product:{name:someGlobal,price:1}};</script>`},
		{"woocommerce loading its variations later", `<form data-product_variations="false"></form>`},
		{"a broken payload", `<script type="application/json" id="__NUXT_DATA__">[{"product":1},{"name":2,"price":9}]</script>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if objs := appState(t, tc.page); len(objs) != 0 {
				t.Errorf("offered %v", objs)
			}
		})
	}
}

func TestAppStateKeepsToItsLimits(t *testing.T) {
	var many strings.Builder
	many.WriteString(`<script id="__NEXT_DATA__" type="application/json">[`)
	for i := range maxStateObjects + 10 {
		if i > 0 {
			many.WriteByte(',')
		}
		fmt.Fprintf(&many, `{"name":"Tile %d","price":1}`, i)
	}
	many.WriteString(`]</script>`)
	if objs := appState(t, many.String()); len(objs) != maxStateObjects {
		t.Errorf("%d objects offered, want the %d the limit allows", len(objs), maxStateObjects)
	}

	huge := `<script>window.__INITIAL_STATE__ = {"product":{"name":"Mug","price":1},"pad":"` + strings.Repeat("x", maxStateText) + `"};</script>`
	if objs := appState(t, huge+`<div data-product='{"name":"Cup","price":2}'></div>`); len(objs) != 1 || objs[0].Get("object.name").String() != "Cup" {
		t.Errorf("a script over the size limit: offered %v, want it skipped and the page's other state read", objs)
	}

	deep := `<script>window.__S__ = ` + strings.Repeat(`{"a":`, maxStateDepth+5) + `{"name":"Deep","price":1}` + strings.Repeat("}", maxStateDepth+5) + `</script>`
	if objs := appState(t, deep); len(objs) != 0 {
		t.Errorf("an object deeper than the limit was offered: %v", objs)
	}

	cycle := `<script type="application/json" id="__NUXT_DATA__">[{"a":1},{"b":0,"name":2,"price":3},"x",1]</script>`
	if objs := appState(t, cycle); len(objs) != 0 {
		t.Errorf("a cyclic payload was read: %v", objs)
	}
}

func TestAppStateIsScannedOnceAndOnlyWhenAsked(t *testing.T) {
	doc := &adapter.Document{Body: []byte(`<script>window.__INITIAL_STATE__ = {"product":{"name":"Mug","price":1}};</script>`)}
	s := NewSession([]*adapter.Document{doc}, 0)
	if _, err := s.JSONLD(0); err != nil {
		t.Fatal(err)
	}
	if p := parsedOf(doc); p.state.Exists() {
		t.Fatal("the state was scanned before any adapter asked")
	}
	first, _ := s.AppState(0)
	s.Reset([]*adapter.Document{doc})
	second, _ := s.AppState(0)
	if s.Raw(second) == "" || parsedOf(doc).state.Raw != s.Raw(second) {
		t.Fatalf("first %v, second %v: want the one scan kept with the document", first, second)
	}
}

// FuzzAppState: on any page, the scan answers a JSON array of objects, each with a
// source, a name, a path and an object or array, and never fails.
func FuzzAppState(f *testing.F) {
	for _, seed := range []string{
		`<script id="__NEXT_DATA__" type="application/json">{"props":{"product":{"name":"Mug","price":1}}}</script>`,
		`<script>window.__NUXT__=(function(a,b){return {data:[{product:{name:a,price:b,ok:!0,x:void 0}}]}}("Lamp",.5));</script>`,
		`<script>window.__NUXT__={data:[{p:{title:'it\'s',price:1e2,sku:"\u{1F600}\ud83d\ude00"}}]}</script>`,
		`<script type="application/json" id="__NUXT_DATA__">[["Reactive",1],{"a":2},{"name":3,"price":4,"d":5,"m":6},"X",1,["Date","2020"],["Map",3,4]]</script>`,
		`<script>window["__APOLLO_STATE__"]={"P:1":{"name":"A","price":{"__ref":"M:1"}},"M:1":{"amount":1,"x":{"__ref":"P:1"}}}</script>`,
		`<script>window.__PRELOADED_STATE__ = JSON.parse('{"item":{"title":"T","price":2}}')</script>`,
		`<div data-mage-init='{"priceBox":{"priceConfig":{"prices":{"finalPrice":{"amount":1}}}}}'></div>`,
		`<form data-product_variations="[{&quot;display_price&quot;:1}]"></form>`,
		`<script>var c = new Product.Config({"basePrice":"1"}); window.x = {"a": 'b"'}; window.__S__ = {"name":"N","price":1}</script>`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, o := range appState(t, string(body)) {
			obj := o.Get("object")
			if !o.Get("source").Exists() || !o.Get("name").Exists() || !o.Get("path").Exists() || !(obj.IsObject() || obj.IsArray()) {
				t.Fatalf("malformed object %s", o.Raw)
			}
		}
	})
}

// FuzzJSLiteral: a JavaScript literal the reader accepts is written as valid JSON.
func FuzzJSLiteral(f *testing.F) {
	for _, seed := range []string{`{a:1,'b':"c",d:[!0,!1,void 0,.5,-1e3],e:{}}`, `["\x41\u{42}\n",null,undefined]`, `{0:1,a.b:2}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if out, _, ok := readJSLiteral(text, 0, nil, nil); ok && !validText(out) {
			t.Fatalf("%q read as %q, not JSON", text, out)
		}
		if out, ok := devalue(text); ok && !validText(out) {
			t.Fatalf("payload %q read as %q, not JSON", text, out)
		}
	})
}
