// Package openapi holds Stockroom's OpenAPI 3.1 document (openapi.yaml, the source) and the
// documentation page that renders it. The server serves both; the document is converted to
// JSON once, keeping the source's order so that the page lists endpoints as written.
package openapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
)

//go:embed openapi.yaml
var source []byte

// page is the documentation page, served at /docs.
//
//go:embed assets/index.html
var page []byte

// assets are the page and its script. The script (Redoc's standalone bundle) is copied in
// by `make docs-ui` from the npm package pinned in docs-ui/, and is not committed.
//
//go:embed assets
var assets embed.FS

// ScriptFile is the page's script, served at /docs/ScriptFile.
const ScriptFile = "redoc.standalone.js"

// Document is the OpenAPI document as indented JSON.
var Document = sync.OnceValues(func() ([]byte, error) {
	compact, err := yaml.YAMLToJSON(source)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("openapi.yaml as JSON: %w", err)
	}
	return out.Bytes(), nil
})

// Page is the documentation page's HTML.
func Page() []byte { return page }

// mediaTypes are the media types of the assets the page uses.
var mediaTypes = map[string]string{
	".js":   "text/javascript; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".html": "text/html; charset=utf-8",
}

// Asset returns one of the page's assets by file name, with its media type; ok is false
// for a name that is not one.
func Asset(name string) (content []byte, mediaType string, ok bool) {
	if !fs.ValidPath(name) || strings.Contains(name, "/") {
		return nil, "", false
	}
	mediaType, known := mediaTypes[path.Ext(name)]
	if !known {
		return nil, "", false
	}
	content, err := assets.ReadFile("assets/" + name)
	if err != nil {
		return nil, "", false
	}
	return content, mediaType, true
}
