// The conformance guest: one adapter whose Extract misbehaves as the URL's path says, so
// one build serves every ABI conformance test.
package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

type guest struct{}

func (guest) Info() sdk.Info {
	return sdk.Info{Name: "conformance", Version: "0.0.1", Platforms: []string{"test"}}
}

var sink [][]byte

func (guest) Extract(c *sdk.Call) (*sdk.Product, error) {
	switch path := c.URL()[strings.LastIndex(c.URL(), "/")+1:]; path {
	case "spin":
		for {
		}
	case "bomb":
		for {
			sink = append(sink, make([]byte, 1<<20))
		}
	case "panic":
		panic("adapter bug")
	case "exit":
		os.Exit(3)
	case "big":
		s := strings.Repeat("x", 8<<20)
		return &sdk.Product{Title: &s}, nil
	case "badxpath":
		c.Page().HTML().Find("//a[")
	case "need":
		d := c.Need("https://shop.test/extra.json")
		if d == nil {
			return nil, sdk.ErrPending
		}
		t := d.JSON().Get("title").String()
		return &sdk.Product{Title: &t}, nil
	case "hostcalls":
		// 10000 host calls that do nearly nothing: the cost of crossing into the host. The
		// page's JSON-LD is a value the host holds; a missing one (handle 0) would be
		// answered in the guest and measure nothing, so it fails the call.
		v := c.Page().JSONLD()
		if v.Kind() == sdk.Missing {
			return nil, sdk.Fail("no JSON-LD value to ask about")
		}
		for i := 0; i < 10000; i++ {
			v.Kind()
		}
		return nil, sdk.NonProduct("done")
	case "guestloop":
		// Pure guest compute: a byte loop of 10 million iterations.
		n := 0
		for i := 0; i < 10_000_000; i++ {
			n += i & 3
		}
		t := string(rune('a' + n%26))
		return &sdk.Product{Title: &t}, nil
	case "missing":
		return nil, sdk.NonProduct("nothing here")
	case "shape":
		// ABI 1.2: fields read in one call, members built by the host and spliced in.
		ld := c.Page().JSONLD()
		f := ld.Strings("0.@type", "0.offers.price", "0.nothing")
		title := strings.Join(f, "|")
		c.Splice("product.images", ld.Shape(`{"$each":"@this","$map":{"url":{"$concat":[{"$const":"https://img/"},"@type"]},"position":{"$index":1}}}`))
		c.Splice("product.description", ld.Shape(`{"$text":"0.description"}`))
		return &sdk.Product{Title: &title}, nil
	case "ancestor":
		// ABI 1.3: the nearest element above a node that a CSS selector matches.
		root := c.Page().HTML()
		li := root.FindOne("//li")
		title := li.Ancestor("body, ul").Name() + "|" + li.Ancestor("li, h1").Name() + "|" + li.Ancestor("html").Ancestor("*").Name() +
			"|" + li.AncestorWithin("body, html", root.FindOne("//ul")).Name()
		return &sdk.Product{Title: &title}, nil
	case "select":
		// ABI 1.4: the elements below a node that a CSS selector matches.
		root := c.Page().HTML()
		var texts []string
		for _, li := range root.Select("ul li") {
			texts = append(texts, li.Text())
		}
		title := strings.Join(texts, ",") + "|" + root.SelectOne("h1, li").Text() + "|" + root.SelectOne("ul").SelectOne("ul, table").Name()
		return &sdk.Product{Title: &title}, nil
	case "texts":
		// ABI 1.5: the texts below a node outside elements a CSS selector matches.
		root := c.Page().HTML()
		h1 := root.SelectOne("h1")
		title := strings.Join(root.Texts("li:last-child"), ",") + "|" + strings.Join(h1.Texts(""), ",") + "|" + strconv.Itoa(len(h1.Texts("h1")))
		return &sdk.Product{Title: &title}, nil
	case "nodes":
		// ABI 1.6: several nodes asked one question in one call; a node that does not exist
		// answers nothing.
		root := c.Page().HTML()
		items := sdk.Nodes(append(root.Select("li"), sdk.Node{}, root.SelectOne("h1")))
		title := strings.Join(items.Text(), ",") + "|" + strings.Join(items.Name(), ",") + "|" +
			strings.Join(items.Ancestor("ul").Name(), ",") + "|" + strings.Join(sdk.Nodes{root}.SelectOne("ul").SelectOne("li").Text(), ",") +
			"|" + strings.Join(items.Attr("id"), ",") + "|" + strconv.Itoa(len(sdk.Nodes{}.Text()))
		return &sdk.Product{Title: &title}, nil
	case "appstate":
		// ABI 1.7: the page's application state objects, scanned by the host.
		var parts []string
		for _, o := range c.Page().AppState() {
			parts = append(parts, o.Source+" "+o.Name+" "+o.Path+" "+o.Object.Get("name").String()+" "+o.Object.Get("price").String())
		}
		title := strings.Join(parts, "|") + "|" + strconv.Itoa(len(c.Page().AppState()))
		return &sdk.Product{Title: &title}, nil
	case "badnodes":
		sdk.Nodes(c.Page().HTML().Select("li")).SelectOne("li[")
	case "badtexts":
		c.Page().HTML().Texts("li[")
	case "badselect":
		c.Page().HTML().Select("li[")
	case "badcss":
		c.Page().HTML().FindOne("//li").Ancestor("ul[")
	case "badshape":
		c.Page().JSONLD().Shape(`{"$each":"x"}`)
	case "badsplice":
		c.Splice("product.title", c.Page().JSONLD())
		return &sdk.Product{}, nil
	}
	root := c.Page().HTML()
	title := root.TextOf("//h1")
	body := string(c.Page().Body())
	n := len(root.Find("//li"))
	price, _ := c.Page().JSONLD().Get("0.offers.price").Float()
	sku := c.Page().Header("X-Sku") + strings.Repeat("!", n) + body[:0]
	return &sdk.Product{Title: &title, SKU: &sku, Price: &sdk.Price{Current: price}}, nil
}

func init() { sdk.Serve(guest{}) }

func main() {}
