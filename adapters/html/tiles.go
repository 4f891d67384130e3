package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// readTiles reads the product tiles of a listing page from its links (hrefs[i] is
// links[i]'s target): links to product-like paths, or, when the store's paths say
// nothing, links that wrap an image and sit by a price. tiles[i] reports whether links[i]
// was read as a tile's link.
func readTiles(links []sdk.Node, hrefs []string, urls *resolver) (out []sdk.Listing, tiles []bool) {
	// Which links sit in menus comes in one host call for the whole page: asked link by
	// link, it was a call per link.
	menus := sdk.Nodes(links).Ancestor(siteFrame)
	anchors := make([]int, 0, len(links)) // links outside menus, by index
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

// siteFrame selects the page's header, menus, footer and breadcrumbs, where product links
// are featured items, not the collection's.
const siteFrame = "header, nav, footer, [role=navigation]"

// tileLink is a link read as a product tile's: its index among the page's links, and the
// product's URL.
type tileLink struct {
	linkIndex int
	url       string
}

// imageTileLinks picks the tiles of a page whose paths say nothing: repeated links around an
// image with a price beside, among the links at anchors (hrefs[i] is links[i]'s target).
func imageTileLinks(links []sdk.Node, hrefs []string, anchors []int, urls *resolver) []tileLink {
	var candidates []tileLink
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
		candidates = append(candidates, tileLink{i, u.url})
	}
	// One image link by a price is a banner; a grid repeats.
	if len(candidates) < 2 {
		return nil
	}
	return candidates
}

// buildListings makes a listing of each URL picked, in order, filled from the first link to it
// and completed from the others; it marks the picked links in tiles.
func buildListings(links []sdk.Node, picked []tileLink, urls *resolver, tiles []bool) []sdk.Listing {
	// Sized once: a guest pays for each time a list grows.
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
		// A tile often links twice (image and name): complete the first from the second.
		completeListing(&out[seen[p.url]], links[p.linkIndex], urls)
	}
	return out
}

// tileElements selects the elements that hold a product's tile.
const tileElements = "li, article, [class*=product], [class*=tile], [class*=card], [class*=item]"

// tileOf returns the element holding a product link's tile: the nearest list item,
// article or product/card/tile-classed element, else the link's parent.
func tileOf(a sdk.Node) sdk.Node {
	t := a.Ancestor(tileElements)
	return tileOrParent(a, t, t.Name())
}

// tileOrParent is tileOf's answer for the link a whose nearest tile-like ancestor is t,
// named name.
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

// isOwnTile reports whether a's tile holds image links to a's target only: a container
// of the whole grid is not one product's tile.
func isOwnTile(a, tile sdk.Node) bool {
	href := a.Attr("href")
	for _, other := range tile.Select("a[href]:has(img)") {
		if other.Attr("href") != href {
			return false
		}
	}
	return tile.Exists()
}

// formerPrices selects the elements that show a former price: struck through, or classed
// as the price it was (was, compare-at, old).
const formerPrices = "s, del, strike, [class*=was], [class*=compare], [class*=old]"

// struckOut selects the elements that strike a former price through.
const struckOut = "s, del, strike"

// tilePrice reads the price a tile shows, skipping struck-through former prices.
func tilePrice(tile sdk.Node) (float64, bool) {
	// The host finds the price-classed elements in one walk; an XPath of contains() over
	// the tile's every element cost a third of listing a page. A price element's texts
	// outside former prices (the element itself may be one) come in one call: finding its
	// text nodes, then asking each for its text and for a former price around it, was a
	// quarter of listing a page through the guest.
	shown := false // a current price element shows some text
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
	// No current price element shows a text: the first price-like text of the tile outside
	// links and struck elements.
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

// hasDigit reports whether s holds an ASCII digit, as strings.ContainsAny(s,
// "0123456789") does without building its set on every call.
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if '0' <= s[i] && s[i] <= '9' {
			return true
		}
	}
	return false
}

// tileHeadings selects a tile link's heading, which names the product.
const tileHeadings = "h2, h3, h4, [class*=title], [class*=name]"

// fillListings fills each listing out[i] from as[i], the first link to it, as fill does,
// asking the host for the links' headings, tiles and images in one call each for the
// page: link by link, that was six calls per tile.
func fillListings(out []sdk.Listing, as sdk.Nodes, urls *resolver) {
	if len(as) == 0 {
		return
	}
	titles := as.SelectOne(tileHeadings).Text()
	tiles := as.Ancestor(tileElements)
	tileNames := tiles.Name()
	imgs := as.SelectOne("img")
	srcs := imgs.Attr("src")
	// The page's prices and pictures each come from one allocation: one per listing was a
	// fifth of what a guest allocates for a page, and each costs it far more than natively.
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

// completeListing completes a listing's title, price and image from its link and tile. A tile
// links twice or more (image, name): each field is read once, from the first link that
// has it, and the host is asked only for what is still missing.
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

// titleOf is a tile link's title: heading, its heading's text, else its title attribute,
// its text or its image's alt text (img, when known: 0 asks the link for it), asking no
// further than the first that is not blank.
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

// imagesOf is a listing's image (see imageURL), none when it has none.
func imagesOf(img sdk.Node, src string, urls *resolver) []sdk.Image {
	if u := imageURL(img, src, urls); u != "" {
		return []sdk.Image{{URL: u}}
	}
	return nil
}

// imageURL is the URL of a listing's image: src, the src of img, else its data-src; ""
// when blank or inline (data:).
func imageURL(img sdk.Node, src string, urls *resolver) string {
	if src = strings.TrimSpace(src); src == "" {
		src = strings.TrimSpace(img.Attr("data-src"))
	}
	if src == "" || strings.HasPrefix(src, "data:") {
		return ""
	}
	return urls.resolve(src)
}
