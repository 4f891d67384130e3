package kit

import (
	"context"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/stockroom/stockroom/core/adapter"
)

// savedPages serves documents from files: the saved page itself, at its URL and at the
// URL it landed on, and follow-ups from dir, where a follow-up URL is saved under its
// path with "/" replaced by "_" (https://shop/products/x.json is products_x.json), its
// content type told by the file's extension. Anything else fails as offline.
type savedPages struct {
	page *adapter.Document
	dir  string
}

func (s savedPages) Fetch(_ context.Context, rawURL string) (*adapter.Document, error) {
	if s.page != nil && (rawURL == s.page.URL || rawURL == s.page.FinalURL) {
		return s.page, nil
	}
	if s.dir != "" {
		if u, err := url.Parse(rawURL); err == nil {
			name := strings.ReplaceAll(strings.TrimPrefix(u.Path, "/"), "/", "_")
			if body, err := os.ReadFile(filepath.Join(s.dir, name)); err == nil && name != "" {
				doc := &adapter.Document{URL: rawURL, Status: 200, Body: body}
				if ct := mime.TypeByExtension(filepath.Ext(name)); ct != "" {
					doc.Header = http.Header{"Content-Type": {ct}}
				}
				return doc, nil
			}
		}
	}
	return &adapter.Document{URL: rawURL, Err: "offline: no saved copy of " + rawURL}, nil
}

// savedPage reads the page saved in file as the answer for rawURL, landed at finalURL
// after redirects ("" when not redirected).
func savedPage(rawURL, finalURL, file string) (*adapter.Document, error) {
	body, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if finalURL == rawURL {
		finalURL = ""
	}
	return &adapter.Document{URL: rawURL, FinalURL: finalURL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: body}, nil
}
