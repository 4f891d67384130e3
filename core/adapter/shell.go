package adapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Renderer draws a fetched page the way a browser would, running its scripts, and returns
// the page as the scripts left it. The engine's is core/render, which drives headless
// Chromium; core/adapter only needs this much of it.
type Renderer interface {
	Render(ctx context.Context, page *Document) (*Document, error)
}

// ErrNeedsRendering is an operation that found nothing because its page is an
// application shell (IsAppShell) and no Renderer is configured to run its scripts.
var ErrNeedsRendering = errors.New("the page is drawn by script and rendering is off")

// shellText is the most visible text an application shell's body holds: a mount point's
// "Loading..." or a cookie notice, not a catalog.
const shellText = 200

// IsAppShell reports whether doc is an application shell: a successful HTML page that has
// not been rendered yet, whose body is essentially an empty mount point plus the scripts
// that fill it: a script that runs, no link, no heading and hardly any text. Only a
// browser running those scripts sees its products. The text of <noscript> ("enable
// JavaScript to use this shop") does not count as content. A page with a heading or a
// link is a page, however small, whose adapters' verdict stands.
func IsAppShell(doc *Document) bool {
	if doc == nil || doc.Rendered || doc.Status < 200 || doc.Status > 299 || !IsHTML(doc) {
		return false
	}
	z := html.NewTokenizer(bytes.NewReader(doc.Body))
	skip := 0 // depth inside elements whose text is not content
	scripts, text := 0, 0
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return scripts > 0 && text <= shellText
		case html.StartTagToken, html.SelfClosingTagToken:
			// Elements whose text is not content are skipped to their end tag; a
			// self-closing one has none.
			opens := 0
			if tt == html.StartTagToken {
				opens = 1
			}
			name, hasAttr := z.TagName()
			switch atom.Lookup(name) {
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				if skip == 0 {
					return false
				}
			case atom.A:
				if skip == 0 && hasAttr && hasHref(z) {
					return false
				}
			case atom.Script:
				if runsScript(z) {
					scripts++
				}
				skip += opens
			case atom.Style, atom.Noscript, atom.Template, atom.Title:
				skip += opens
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Title:
				skip = max(skip-1, 0)
			}
		case html.TextToken:
			if skip == 0 {
				for _, r := range string(z.Text()) {
					if !unicode.IsSpace(r) {
						text++
					}
				}
				if text > shellText {
					return false
				}
			}
		}
	}
}

// hasHref reports whether the tag the tokenizer is on has an href attribute.
func hasHref(z *html.Tokenizer) bool {
	for {
		key, _, more := z.TagAttr()
		if string(key) == "href" {
			return true
		}
		if !more {
			return false
		}
	}
}

// runsScript reports whether the <script> tag the tokenizer is on holds code a browser
// runs, rather than data (JSON-LD, a framework's embedded state).
func runsScript(z *html.Tokenizer) bool {
	for {
		key, val, more := z.TagAttr()
		if string(key) == "type" {
			switch strings.ToLower(strings.TrimSpace(string(val))) {
			case "", "module", "text/javascript", "application/javascript":
				return true
			}
			return false
		}
		if !more {
			return true
		}
	}
}

// IsHTML reports whether doc is an HTML page, by its Content-Type or, without one, its body.
func IsHTML(doc *Document) bool {
	if ct := doc.Header.Get("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		return mt == "text/html" || mt == "application/xhtml+xml"
	}
	return http.DetectContentType(doc.Body) == "text/html; charset=utf-8"
}

// renderShells renders, in place, the documents of docs that are application shells, and
// reports whether it rendered any: an operation that found nothing on them runs again on
// what their scripts drew. Without a Renderer, shells are an ErrNeedsRendering.
func (s *Set) renderShells(ctx context.Context, docs map[string]*Document) (bool, error) {
	var shells []string
	for u, d := range docs {
		if IsAppShell(d) {
			shells = append(shells, u)
		}
	}
	if len(shells) == 0 {
		return false, nil
	}
	slices.Sort(shells) // the same message for the same pages
	if s.Renderer == nil {
		return false, fmt.Errorf("%s: %w (an application shell with no product data; render.enabled turns rendering on)",
			strings.Join(shells, ", "), ErrNeedsRendering)
	}
	for _, u := range shells {
		drawn, err := s.Renderer.Render(ctx, docs[u])
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			return false, fmt.Errorf("render %s: %w", u, err)
		}
		drawn.Rendered = true
		docs[u] = drawn
	}
	return true, nil
}
