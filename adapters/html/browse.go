package html

// Discover and List for stores no platform adapter claims: the collections are read from
// the home page's menus and category-like links, and a collection is listed by reading its
// product tiles and following its "next page" link. Everything here is a general
// heuristic over markup shoppers see; nothing names a store.

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// isCategorySegment reports whether s is a first path segment (or the segment before the
// handle) under which stores put their categories. The segment sets are switches rather
// than maps: a guest hashes strings slowly, and every link of a page meets them.
func isCategorySegment(s string) bool {
	switch s {
	case "collections", "collection", "category", "categories", "c", "shop", "departments",
		"department", "dept", "catalog", "catalogue", "browse", "cat", "kategorie", "categorie",
		"categoria":
		return true
	}
	return false
}

// isProductSegment reports whether s is a path segment under which stores put product
// pages.
func isProductSegment(s string) bool {
	switch s {
	case "products", "product", "p", "item", "items", "dp", "produkt", "produit", "producto",
		"prodotto":
		return true
	}
	return false
}

// isExcludedSegment reports whether s marks a link that is neither a category nor a
// product: the store's own machinery and its editorial pages.
func isExcludedSegment(s string) bool {
	switch s {
	case "cart", "basket", "bag", "checkout", "account", "accounts", "login", "logout",
		"register", "signin", "sign-in", "search", "blog", "blogs", "news", "pages", "page",
		"policy", "policies", "privacy", "terms", "contact", "about", "about-us", "help", "faq",
		"wishlist", "stores", "store-locator", "cdn", "static", "media", "assets", "sitemap.xml",
		"robots.txt":
		return true
	}
	return false
}

// segments appends to buf the non-empty, lower-cased segments of a URL path; a page's
// links reuse one buffer. One pass over the path, lower-casing only a segment that needs
// it, and for most bytes a table lookup and nothing else: in a guest every branch taken
// costs, and every link of a page comes through here.
func segments(p string, buf []string) []string {
	start, lower := 0, true
	for i := 0; i < len(p); i++ {
		if segmentMarks[p[i]] {
			if p[i] != '/' {
				lower = false
				continue
			}
			buf = appendSegment(buf, p[start:i], lower)
			start, lower = i+1, true
		}
	}
	return appendSegment(buf, p[start:], lower)
}

// appendSegment appends s to buf, lower-cased unless lower says it is already, when not
// empty.
func appendSegment(buf []string, s string, lower bool) []string {
	if s == "" {
		return buf
	}
	if !lower {
		s = strings.ToLower(s)
	}
	return append(buf, s)
}

// segmentMarks are the bytes segments looks at twice: the slash, and those that may need
// lower-casing (upper-case ASCII letters, any byte of a multi-byte character).
var segmentMarks = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '/' || 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf
	}
	return t
}()

// isProductPath reports whether a path looks like a product page: a product segment
// followed by a handle.
func isProductPath(segs []string) bool {
	for _, s := range segs[:max(len(segs)-1, 0)] {
		if isProductSegment(s) {
			return true
		}
	}
	return false
}

// isCategoryPath reports whether a path looks like a category: a category segment
// followed by a handle.
func isCategoryPath(segs []string) bool {
	return len(segs) >= 2 && isCategorySegment(segs[0])
}

func isExcluded(segs []string) bool {
	for _, s := range segs {
		if isExcludedSegment(s) {
			return true
		}
	}
	if n := len(segs); n > 0 {
		// Files (images, feeds, scripts) are never categories.
		last := segs[n-1]
		if i := strings.LastIndexByte(last, '.'); i >= 0 && !strings.HasSuffix(last, ".html") && !strings.HasSuffix(last, ".htm") {
			return true
		}
	}
	return false
}

// docLinks is the resolver of a document's relative links: against the final URL after
// redirects, else the requested one; false when that is not a URL with a host.
func docLinks(d *sdk.Doc) (*resolver, bool) {
	raw := d.URL
	if d.FinalURL != "" {
		raw = d.FinalURL
	}
	return resolverOf(raw)
}

// Discover lists the categories the home page links to: every link of its menus (nav,
// header, anything marked as a menu) that is not a product, the home or store machinery,
// and anywhere on the page links whose path says category.
func (Adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no home page")
	}
	urls, ok := docLinks(page)
	if !ok {
		return nil, sdk.Fail("bad site URL %q", c.URL())
	}
	root := page.HTML()
	var out []sdk.Collection
	seen := map[string]bool{}
	var segs []string
	add := func(a sdk.Node, inMenu bool) {
		segs = segs[:0]
		u, ok := urls.linkSegments(a.Attr("href"), &segs)
		if !ok {
			return
		}
		if len(segs) == 0 || isProductPath(segs) || isExcluded(segs) {
			return
		}
		if !inMenu && !isCategoryPath(segs) {
			return
		}
		key := u.url
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, sdk.Collection{URL: key, Handle: segs[len(segs)-1], Title: a.Text()})
	}
	menus := "//nav//a[@href] | //header//a[@href] | //*[@role='navigation']//a[@href]" +
		" | //*[contains(@class,'menu') or contains(@id,'menu')]//a[@href]"
	for _, a := range root.Find(menus) {
		// Breadcrumbs are navigation too, but lead up, not across.
		if a.FindOne("ancestor::*[contains(@class,'breadcrumb') or @aria-label='Breadcrumb' or @aria-label='breadcrumb']").Exists() {
			continue
		}
		add(a, true)
	}
	for _, a := range root.Find("//a[@href]") {
		add(a, false)
	}
	return out, nil
}

// List reads one page of the collection at c.URL(). The cursor is the URL of the page to
// read ("" for the collection itself); Next is the following page's URL, "" on the last.
func (Adapter) List(c *sdk.Call) (sdk.Page, error) {
	collection, ok := resolverOf(c.URL())
	if !ok {
		return sdk.Page{}, sdk.Fail("not a collection URL: %q", c.URL())
	}
	target := c.URL()
	if c.Cursor() != "" {
		// The cursor is an absolute URL this adapter returned. Another adapter's cursor (a
		// page number) reaches here when that adapter failed: refuse it rather than resolve
		// it as a relative link; and stay on the collection's site whatever it says.
		u, ok := collection.link(c.Cursor())
		if !ok || !strings.HasPrefix(c.Cursor(), "http://") && !strings.HasPrefix(c.Cursor(), "https://") {
			return sdk.Page{}, sdk.Fail("bad cursor %q", c.Cursor())
		}
		target = u.url
	}
	d := c.Need(target)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		return sdk.Page{}, sdk.Fail("collection page %s: %s", target, d.Failure())
	}
	urls, ok := docLinks(d)
	if !ok {
		return sdk.Page{}, sdk.Fail("bad page URL %q", target)
	}
	root := d.HTML()
	links := root.Select("a[href]")
	// Where each link leads comes in one host call for the page: asked link by link, it
	// was a call per link.
	hrefs := sdk.Nodes(links).Attr("href")
	items, tiles := listings(links, hrefs, urls)
	out := sdk.Page{Listings: items}
	if next := followingPage(c.URL(), target, root, links, hrefs, tiles, urls); next != "" && next != target && next != c.URL() {
		out.Next = next
		// A collection states its size on every page; once the host knows it (from an
		// earlier page), reading it again is work for nothing: 4 % of the guest's work on
		// a demo category page (1,483 of 33,628 loop heads).
		total := c.Total()
		if total == 0 {
			out.Total = statedTotal(root, len(items))
			total = out.Total
		}
		if c.Cursor() == "" && total > 0 && len(items) > 0 {
			out.Ahead = pagesAhead(urls.page, next, (total+len(items)-1)/len(items))
		}
	}
	return out, nil
}

// chrome selects the page's header, menus, footer and breadcrumbs, where product links
// are featured items, not the collection's.
const chrome = "header, nav, footer, [role=navigation]"

// listings reads the product tiles of a listing page from its links (hrefs[i] is
// links[i]'s target): links to product-like paths, or, when the store's paths say
// nothing, links that wrap an image and sit by a price. tiles[i] reports whether links[i]
// was read as a tile's link.
func listings(links []sdk.Node, hrefs []string, urls *resolver) (out []sdk.Listing, tiles []bool) {
	// Which links sit in menus comes in one host call for the whole page: asked link by
	// link, it was a call per link.
	menus := sdk.Nodes(links).Ancestor(chrome)
	anchors := make([]int, 0, len(links)) // links outside menus, by index
	for i := range links {
		if !menus[i].Exists() {
			anchors = append(anchors, i)
		}
	}
	picked := make([]pick, 0, len(anchors))
	var segs []string
	for _, i := range anchors {
		segs = segs[:0]
		u, ok := urls.linkSegments(hrefs[i], &segs)
		if ok && isProductPath(segs) && !isExcluded(segs) {
			picked = append(picked, pick{i, u.url})
		}
	}
	if len(picked) == 0 {
		picked = imageTiles(links, hrefs, anchors, urls)
	}
	tiles = make([]bool, len(links))
	return build(links, picked, urls, tiles), tiles
}

// pick is a link read as a product tile's: its index among the page's links, and the
// product's URL.
type pick struct {
	link int
	url  string
}

// imageTiles picks the tiles of a page whose paths say nothing: repeated links around an
// image with a price beside, among the links at anchors (hrefs[i] is links[i]'s target).
func imageTiles(links []sdk.Node, hrefs []string, anchors []int, urls *resolver) []pick {
	var cands []pick
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
		if len(segs) == 0 || isExcluded(segs) || isCategoryPath(segs) {
			continue
		}
		tile := tileOf(a)
		if !ownTile(a, tile) {
			continue
		}
		if _, ok := tilePrice(tile); !ok {
			continue
		}
		cands = append(cands, pick{i, u.url})
	}
	// One image link by a price is a banner; a grid repeats.
	if len(cands) < 2 {
		return nil
	}
	return cands
}

// build makes a listing of each URL picked, in order, filled from the first link to it
// and completed from the others; it marks the picked links in tiles.
func build(links []sdk.Node, picked []pick, urls *resolver, tiles []bool) []sdk.Listing {
	// Sized once: a guest pays for each time a list grows.
	out := make([]sdk.Listing, 0, len(picked))
	firsts := make(sdk.Nodes, 0, len(picked)) // the first link to each listing
	var repeats []pick                        // links to a listing already made, in page order
	seen := make(map[string]int, len(picked))
	for _, p := range picked {
		tiles[p.link] = true
		if _, ok := seen[p.url]; ok {
			repeats = append(repeats, p)
			continue
		}
		seen[p.url] = len(out)
		out = append(out, sdk.Listing{URL: p.url})
		firsts = append(firsts, links[p.link])
	}
	fillFirst(out, firsts, urls)
	for _, p := range repeats {
		// A tile often links twice (image and name): complete the first from the second.
		fill(&out[seen[p.url]], links[p.link], urls)
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

// ownTile reports whether a's tile holds image links to a's target only: a container
// of the whole grid is not one product's tile.
func ownTile(a, tile sdk.Node) bool {
	href := a.Attr("href")
	for _, other := range tile.Select("a[href]:has(img)") {
		if other.Attr("href") != href {
			return false
		}
	}
	return tile.Exists()
}

// formerPrice selects the elements that show a former price: struck through, or classed
// as the price it was (was, compare-at, old).
const formerPrice = "s, del, strike, [class*=was], [class*=compare], [class*=old]"

// struck selects the elements that strike a former price through.
const struck = "s, del, strike"

// tilePrice reads the price a tile shows, skipping struck-through former prices.
func tilePrice(tile sdk.Node) (float64, bool) {
	// The host finds the price-classed elements in one walk; an XPath of contains() over
	// the tile's every element cost a third of listing a page. A price element's texts
	// outside former prices (the element itself may be one) come in one call: finding its
	// text nodes, then asking each for its text and for a former price around it, was a
	// quarter of listing a page through the guest.
	shown := false // a current price element shows some text
	for _, p := range tile.FindClass("price") {
		if p.Ancestor(struck).Exists() {
			continue
		}
		for _, s := range p.Texts(formerPrice) {
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
		if !hasDigit(s) || t.Ancestor("a, "+struck).Exists() {
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

// headings selects a tile link's heading, which names the product.
const headings = "h2, h3, h4, [class*=title], [class*=name]"

// fillFirst fills each listing out[i] from as[i], the first link to it, as fill does,
// asking the host for the links' headings, tiles and images in one call each for the
// page: link by link, that was six calls per tile.
func fillFirst(out []sdk.Listing, as sdk.Nodes, urls *resolver) {
	if len(as) == 0 {
		return
	}
	titles := as.SelectOne(headings).Text()
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

// fill completes a listing's title, price and image from its link and tile. A tile
// links twice or more (image, name): each field is read once, from the first link that
// has it, and the host is asked only for what is still missing.
func fill(l *sdk.Listing, a sdk.Node, urls *resolver) {
	if l.Title == "" {
		l.Title = titleOf(a, a.SelectOne(headings).Text(), sdk.Node{})
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

// firstText returns the first of reads' texts that is not blank, trimmed, reading no
// further than it: each read is a call to the host.
func firstText(reads ...func() string) string {
	for _, read := range reads {
		if v := strings.TrimSpace(read()); v != "" {
			return v
		}
	}
	return ""
}

// isNextWord reports whether s is the text of a "next page" link, arrows stripped, in
// one of a few languages. A switch rather than a map: a guest hashes strings slowly, and
// the lookup was most of reading a page's link labels.
func isNextWord(s string) bool {
	switch s {
	case "next", "next page", "weiter", "nächste", "nächste seite", "suivant", "page suivante", "siguiente",
		"página siguiente", "successivo", "pagina successiva", "avanti", "volgende", "próxima", "próximo",
		"seguinte", "nästa", "næste", "neste", "następna", "další", "次へ", "下一页":
		return true
	}
	return false
}

// followingPage is the page after target, a page of the collection whose first page is
// collection: when target is a page of the site's numbering (as those a first page names
// ahead are) and links to the next number's page, that page; otherwise what nextPage
// finds. Most of a crawl's pages are named ahead, and on those the link to the next
// number is found among the page's targets (hrefs, tiles as listings marks them) by
// comparing strings, where nextPage has the host read out the text of every link that is
// not a tile's and looks each over: on a later demo category page, 3.5 % of the guest's
// work (BenchmarkListPage/html-later). A page that links to the next number but labels
// the link with an icon alone goes on too, where nextPage would have ended the
// collection there.
func followingPage(collection, target string, root sdk.Node, links []sdk.Node, hrefs []string, tiles []bool, urls *resolver) string {
	if target == collection {
		// The first page, no page of its numbering: nothing to read.
		return nextPage(root, links, tiles, urls)
	}
	if n, at := numbering(collection, target); at != nil {
		if want := at(n + 1); linksTo(hrefs, tiles, want, urls) {
			return want
		}
	}
	return nextPage(root, links, tiles, urls)
}

// linksTo reports whether a link other than a tile's (hrefs and tiles as followingPage
// has them) leads to want, a URL of the page's site. The link is taken as written, in
// full or from the root, or relative as a tail of want ("?page=3") and then resolved;
// written otherwise, it is not seen, and followingPage falls back on nextPage.
func linksTo(hrefs []string, tiles []bool, want string, urls *resolver) bool {
	fromRoot := want
	if urls.origin != "" {
		fromRoot = strings.TrimPrefix(want, urls.origin)
	}
	for i, h := range hrefs {
		switch {
		case tiles[i] || h == "":
		case h == want || h == fromRoot:
			return true
		case len(h) < len(fromRoot) && strings.HasSuffix(fromRoot, h):
			if u, ok := urls.link(h); ok && u.url == want {
				return true
			}
		}
	}
	return false
}

// nextPage finds the following page of a listing: rel="next" (link or anchor), else the
// first of the page's links, other than its tiles' (tiles[i] for links[i]), whose text or
// label says next, or which is only a forward arrow.
func nextPage(root sdk.Node, links []sdk.Node, tiles []bool, urls *resolver) string {
	resolve := func(href string) string {
		u, _ := urls.link(href)
		return u.url
	}
	// Links with a rel at all are few; their rel's words are read here rather than by an
	// XPath of concat() and normalize-space() over every anchor of the page.
	for _, n := range root.Select("link[href][rel], a[href][rel]") {
		if !slices.Contains(strings.Fields(strings.ToLower(n.Attr("rel"))), "next") {
			continue
		}
		if u := resolve(n.Attr("href")); u != "" {
			return u
		}
	}
	// A tile's link names its product; reading the texts of a grid's every link was most
	// of this scan. The others' texts come in one call.
	others := make(sdk.Nodes, 0, len(links))
	for i, a := range links {
		if !tiles[i] {
			others = append(others, a)
		}
	}
	texts := others.Text()
	for i, a := range others {
		label := firstText(func() string { return texts[i] }, func() string { return a.Attr("aria-label") }, func() string { return a.Attr("title") })
		// Menus hold no next page, but a nav may be the pagination itself. Asked of the
		// few links that say next, not of every link.
		if !isNextLabel(label) || a.Ancestor("header, nav:not([class*=pag]):not([aria-label*=agination])").Exists() {
			continue
		}
		if u := resolve(a.Attr("href")); u != "" {
			return u
		}
	}
	return ""
}

// isNextLabel reports whether a link's text means "next page": a next word with any
// arrows around it, or an arrow alone.
func isNextLabel(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return false
	}
	trimmed := strings.TrimSpace(strings.TrimFunc(s, isArrowOrSpace))
	if trimmed == "" {
		// An arrow alone; "‹" and "«" point back and are not trimmed, so never match.
		return strings.ContainsAny(s, "›»→>❯")
	}
	return isNextWord(trimmed)
}

// isArrowOrSpace reports whether r is a forward arrow or a space, which a next page's
// label may have around its word.
func isArrowOrSpace(r rune) bool {
	switch r {
	case '›', '»', '→', '>', '⟩', '❯', ' ', '\u00a0':
		return true
	}
	return false
}
