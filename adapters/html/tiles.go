package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// readTiles reads the product tiles of a listing page from the page's links; hrefs[i] is
// the target of links[i]. A tile's link leads to a path that looks like a product's. When
// no path on the page does, a tile's link is one that wraps an image beside a price. The
// answer has one listing for each product, and tiles[i] reports whether links[i] is the
// link of a tile.
func readTiles(links []sdk.Node, hrefs []string, urls *resolver) (out []sdk.Listing, tiles []bool) {
	// Ask the host in one call which links sit in the page's menus.
	menus := sdk.Nodes(links).Ancestor(siteFrame)
	anchors := make([]int, 0, len(links)) // the indexes of the links outside menus
	for i := range links {
		if !menus[i].Exists() {
			anchors = append(anchors, i)
		}
	}
	picked := make([]tileLink, 0, len(anchors))
	var segs []string
	for _, i := range anchors {
		segs = segs[:0]
		u, ok := urls.linkSegments(hrefs[i], &segs)
		if ok && isProductPath(segs) && !isExcludedPath(segs) {
			picked = append(picked, tileLink{i, u.url})
		}
	}
	if len(picked) == 0 {
		picked = imageTileLinks(links, hrefs, anchors, urls)
	}
	tiles = make([]bool, len(links))
	return buildListings(links, picked, urls, tiles), tiles
}

// siteFrame selects the parts of a page that every page of the site repeats: the header,
// the menus and the footer. Product links there are featured products, not the
// collection's.
const siteFrame = "header, nav, footer, [role=navigation]"

// tileLink is the link of a product tile: its index among the page's links, and the
// product's URL.
type tileLink struct {
	linkIndex int
	url       string
}

// imageTileLinks finds the tiles of a page whose paths do not say which links lead to
// products. A tile's link wraps an image and has a price beside it in a tile of its own.
// It looks at the links whose indexes are in anchors; hrefs[i] is the target of links[i].
func imageTileLinks(links []sdk.Node, hrefs []string, anchors []int, urls *resolver) []tileLink {
	var candidates []tileLink
	var firstTile sdk.Node
	var segs []string
	for _, i := range anchors {
		a := links[i]
		if !a.SelectOne("img").Exists() {
			continue
		}
		segs = segs[:0]
		u, ok := urls.linkSegments(hrefs[i], &segs)
		if !ok || u.url == urls.page {
			continue
		}
		if len(segs) == 0 || isExcludedPath(segs) || isCategoryPath(segs) {
			continue
		}
		tile := tileOf(a)
		if !isOwnTile(a, tile) {
			continue
		}
		if _, ok := tilePrice(tile); !ok {
			continue
		}
		if len(candidates) == 0 {
			firstTile = tile
		}
		candidates = append(candidates, tileLink{i, u.url})
	}
	// One image link beside a price is a banner, not a grid of products, unless the
	// markup says it is a product's tile: a category may hold a single product.
	if len(candidates) == 1 && !isProductTile(firstTile) {
		return nil
	}
	return candidates
}

// isProductTile reports whether the markup marks a tile as a product's: its class, or
// that of the grid around it, says product (Magento's li.product-item in ol.products,
// WooCommerce's li.product in ul.products, a theme's product card).
func isProductTile(tile sdk.Node) bool {
	if strings.Contains(strings.ToLower(tile.Attr("class")), "product") {
		return true
	}
	return tile.Ancestor("[class*=products], [class*=product-grid], [class*=product-list], [class*=product-items]").Exists()
}

// buildListings makes one listing for each product URL in picked, in page order. A
// listing is filled from the first link to its product and completed from the others.
// It marks each picked link in tiles.
func buildListings(links []sdk.Node, picked []tileLink, urls *resolver, tiles []bool) []sdk.Listing {
	// The lists are made at their final size: growing a list is slow in the guest.
	out := make([]sdk.Listing, 0, len(picked))
	firsts := make(sdk.Nodes, 0, len(picked)) // the first link to each listing
	var repeats []tileLink                    // links to a listing already made, in page order
	seen := make(map[string]int, len(picked))
	for _, p := range picked {
		tiles[p.linkIndex] = true
		if _, ok := seen[p.url]; ok {
			repeats = append(repeats, p)
			continue
		}
		seen[p.url] = len(out)
		out = append(out, sdk.Listing{URL: p.url})
		firsts = append(firsts, links[p.linkIndex])
	}
	fillListings(out, firsts, urls)
	for _, p := range repeats {
		// A tile often links to its product twice, from the image and from the name.
		completeListing(&out[seen[p.url]], links[p.linkIndex], urls)
	}
	return out
}

// tileElements selects the elements that may hold a product's tile.
const tileElements = "li, article, [class*=product], [class*=tile], [class*=card], [class*=item]"

// tileOf returns the tile of a product link: the nearest list item, article, or element
// whose class says product, tile, card or item; else the link's parent.
func tileOf(a sdk.Node) sdk.Node {
	t := a.Ancestor(tileElements)
	return tileOrParent(a, t, t.Name())
}

// tileOrParent is tileOf for the link a, given its nearest tile-like ancestor t and that
// ancestor's element name.
func tileOrParent(a, t sdk.Node, name string) sdk.Node {
	if !t.Exists() {
		t = a.FindOne("..")
		name = t.Name()
	}
	switch name {
	case "body", "main", "html":
		// The page itself is no tile: a lone image link there is a banner.
		return sdk.Node{}
	}
	return t
}

// isOwnTile reports whether every image link in tile leads where a leads. An element
// that holds the whole grid is not one product's tile.
func isOwnTile(a, tile sdk.Node) bool {
	href := a.Attr("href")
	for _, other := range tile.Select("a[href]:has(img)") {
		if other.Attr("href") != href {
			return false
		}
	}
	return tile.Exists()
}

// formerPrices selects the elements that show a former price: struck through, or with a
// class that says so (was, compare-at, old).
const formerPrices = "s, del, strike, [class*=was], [class*=compare], [class*=old]"

// struckOut selects the elements that strike a price through.
const struckOut = "s, del, strike"

// tilePrice reads the price a tile shows, skipping former prices.
func tilePrice(tile sdk.Node) (float64, bool) {
	// Read the price elements' texts outside former prices. The host finds the elements
	// whose class says price, and each one's texts, in one call each.
	shown := false // whether a current price element shows any text
	for _, p := range tile.FindClass("price") {
		if p.Ancestor(struckOut).Exists() {
			continue
		}
		for _, s := range p.Texts(formerPrices) {
			digits := hasDigit(s)
			if !digits && shown {
				continue
			}
			shown = true
			if !digits {
				continue
			}
			if f, ok := sdk.ParsePrice(s); ok {
				return f, true
			}
		}
	}
	if shown {
		return 0, false
	}
	// No current price element shows any text: take the first price in the tile's texts,
	// outside links and struck-out elements.
	for _, t := range tile.Find(".//text()") {
		s := t.Text()
		if !hasDigit(s) || t.Ancestor("a, "+struckOut).Exists() {
			continue
		}
		if f, ok := sdk.ParsePrice(s); ok {
			return f, true
		}
	}
	return 0, false
}

// hasDigit reports whether s holds an ASCII digit. It answers as strings.ContainsAny(s,
// "0123456789") does, without building the set of digits on every call.
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if '0' <= s[i] && s[i] <= '9' {
			return true
		}
	}
	return false
}

// tileHeadings selects the heading inside a tile's link, which names the product.
const tileHeadings = "h2, h3, h4, [class*=title], [class*=name]"

// fillListings fills each listing out[i] from as[i], the first link to its product: the
// title, the price and the image. It asks the host for all the links' headings, tiles and
// images in one call each.
func fillListings(out []sdk.Listing, as sdk.Nodes, urls *resolver) {
	if len(as) == 0 {
		return
	}
	titles := as.SelectOne(tileHeadings).Text()
	tiles := as.Ancestor(tileElements)
	tileNames := tiles.Name()
	imgs := as.SelectOne("img")
	srcs := imgs.Attr("src")
	// One allocation holds all the page's prices, and one all its pictures: allocating is
	// slow in the guest.
	prices := make([]sdk.Price, len(as))
	pictures := make([]sdk.Image, len(as))
	for i, a := range as {
		l := &out[i]
		l.Title = titleOf(a, titles[i], imgs[i])
		tile := tileOrParent(a, tiles[i], tileNames[i])
		if f, ok := tilePrice(tile); ok {
			prices[i].Current = f
			l.Price = &prices[i]
		}
		img, src := imgs[i], srcs[i]
		if !img.Exists() {
			img = tile.SelectOne("img")
			src = img.Attr("src")
		}
		if u := imageURL(img, src, urls); u != "" {
			pictures[i].URL = u
			l.Images = pictures[i : i+1 : i+1]
		}
	}
}

// completeListing fills in the title, price or image that a listing still lacks, from
// another link a to its product and that link's tile. It asks the host only for what is
// missing.
func completeListing(l *sdk.Listing, a sdk.Node, urls *resolver) {
	if l.Title == "" {
		l.Title = titleOf(a, a.SelectOne(tileHeadings).Text(), sdk.Node{})
	}
	if l.Price != nil && len(l.Images) > 0 {
		return
	}
	tile := tileOf(a)
	if l.Price == nil {
		if f, ok := tilePrice(tile); ok {
			l.Price = &sdk.Price{Current: f}
		}
	}
	if len(l.Images) == 0 {
		img := a.SelectOne("img")
		if !img.Exists() {
			img = tile.SelectOne("img")
		}
		l.Images = imagesOf(img, img.Attr("src"), urls)
	}
}

// titleOf is the title of a tile's link a: the first that is not blank of heading (the
// text of its heading), its title attribute, its text, and the alt text of img, its
// image. When img is the zero Node, the image is looked up. Only what is needed is read.
func titleOf(a sdk.Node, heading string, img sdk.Node) string {
	if t := strings.TrimSpace(heading); t != "" {
		return t
	}
	if t := strings.TrimSpace(a.Attr("title")); t != "" {
		return t
	}
	if t := strings.TrimSpace(a.Text()); t != "" {
		return t
	}
	if !img.Exists() {
		img = a.SelectOne("img")
	}
	return strings.TrimSpace(img.Attr("alt"))
}

// imagesOf is a listing's images: the one imageURL finds, or none.
func imagesOf(img sdk.Node, src string, urls *resolver) []sdk.Image {
	if u := imageURL(img, src, urls); u != "" {
		return []sdk.Image{{URL: u}}
	}
	return nil
}

// imageURL is the URL of a listing's image: src (the src attribute of img), else img's
// data-src attribute. It is "" when both are blank or the image is inline (data:).
func imageURL(img sdk.Node, src string, urls *resolver) string {
	if src = strings.TrimSpace(src); src == "" {
		src = strings.TrimSpace(img.Attr("data-src"))
	}
	if src == "" || strings.HasPrefix(src, "data:") {
		return ""
	}
	return urls.resolve(src)
}
