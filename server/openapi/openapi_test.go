package openapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	validationerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"golang.org/x/net/html"

	"github.com/stockroom/stockroom/server/openapi"
)

// model reads the served document with libopenapi.
func model(t *testing.T) (libopenapi.Document, *v3.Document) {
	t.Helper()
	raw, err := openapi.Document()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		t.Fatal(err)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("build the model: %v", err)
	}
	return doc, &m.Model
}

func TestDocumentIsValidOpenAPI31(t *testing.T) {
	doc, _ := model(t)
	if got := doc.GetVersion(); got != "3.1.0" {
		t.Fatalf("version %q, want 3.1.0", got)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("build the validator: %v", errs)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		for _, e := range errs {
			t.Errorf("%s: %s", e.Message, e.Reason)
			for _, f := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s", f.Reason, f.FieldPath)
			}
		}
	}
}

func TestDocumentIsJSONInTheSourceOrder(t *testing.T) {
	raw, err := openapi.Document()
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(raw) {
		t.Fatal("the served document is not JSON")
	}
	// The page lists endpoints in the document's order: v2 first, as the source writes it.
	v2, v1, legacy := bytes.Index(raw, []byte(`"/v2/crawl"`)), bytes.Index(raw, []byte(`"/v1/crawl"`)), bytes.Index(raw, []byte(`"/api/product"`))
	if v2 < 0 || v1 < 0 || legacy < 0 || !(v2 < v1 && v1 < legacy) {
		t.Errorf("paths out of the source's order: /v2/crawl at %d, /v1/crawl at %d, /api/product at %d", v2, v1, legacy)
	}
}

// An example that its own schema refuses would teach clients the wrong shape.
func TestExamplesMatchTheirSchemas(t *testing.T) {
	_, m := model(t)
	schemas := schema_validation.NewSchemaValidator()
	checked := 0
	check := func(where string, content *v3.MediaType) {
		if content == nil || content.Schema == nil {
			return
		}
		examples := map[string]*yaml.Node{}
		if content.Example != nil {
			examples["example"] = content.Example
		}
		for name, ex := range content.Examples.FromOldest() {
			examples["examples/"+name] = ex.Value
		}
		for name, node := range examples {
			var value any
			if err := node.Decode(&value); err != nil {
				t.Errorf("%s %s: %v", where, name, err)
				continue
			}
			checked++
			if ok, errs := schemas.ValidateSchemaObject(content.Schema.Schema(), jsonValue(t, value)); !ok {
				t.Errorf("%s %s does not match its schema:\n%s", where, name, describe(errs))
			}
		}
	}
	for path, item := range m.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			where := strings.ToUpper(method) + " " + path
			if op.RequestBody != nil {
				for mediaType, content := range op.RequestBody.Content.FromOldest() {
					check(where+" request "+mediaType, content)
				}
			}
			for code, resp := range op.Responses.Codes.FromOldest() {
				for mediaType, content := range resp.Content.FromOldest() {
					check(fmt.Sprintf("%s %s %s", where, code, mediaType), content)
				}
			}
		}
	}
	for name, resp := range m.Components.Responses.FromOldest() {
		for mediaType, content := range resp.Content.FromOldest() {
			check("components.responses."+name+" "+mediaType, content)
		}
	}
	if checked < 10 {
		t.Errorf("checked %d examples; the document's examples were not found", checked)
	}
}

// jsonValue is v as encoding/json would decode it, the form the schema validator expects.
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func describe(errs []*validationerrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "  %s: %s\n", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "    %s at %s\n", f.Reason, f.FieldPath)
		}
	}
	return b.String()
}

// Every operation names itself, so that generated clients get stable method names.
func TestEveryOperationHasAnIDAndATag(t *testing.T) {
	_, m := model(t)
	seen := map[string]string{}
	for path, item := range m.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			where := strings.ToUpper(method) + " " + path
			if op.OperationId == "" {
				t.Errorf("%s has no operationId", where)
			} else if other, dup := seen[op.OperationId]; dup {
				t.Errorf("%s and %s share operationId %s", where, other, op.OperationId)
			}
			seen[op.OperationId] = where
			if len(op.Tags) == 0 {
				t.Errorf("%s has no tag", where)
			}
		}
	}
}

// The page must load nothing from the internet: every script, stylesheet, image or frame
// it names is a path on the service itself.
func TestPageLoadsOnlyTheServicesOwnAssets(t *testing.T) {
	tokens := html.NewTokenizer(bytes.NewReader(openapi.Page()))
	var scripts []string
	for {
		kind := tokens.Next()
		if kind == html.ErrorToken {
			break
		}
		if kind != html.StartTagToken && kind != html.SelfClosingTagToken {
			continue
		}
		tag := tokens.Token()
		for _, a := range tag.Attr {
			loaded := (a.Key == "src") || (a.Key == "href" && tag.Data == "link") || a.Key == "spec-url"
			if !loaded {
				continue
			}
			if !isLocal(a.Val) {
				t.Errorf("<%s %s=%q> is not served by the service", tag.Data, a.Key, a.Val)
			}
			if tag.Data == "script" {
				scripts = append(scripts, a.Val)
			}
		}
	}
	if len(scripts) != 1 || scripts[0] != "/docs/"+openapi.ScriptFile {
		t.Errorf("scripts %q, want only /docs/%s", scripts, openapi.ScriptFile)
	}
}

// isLocal reports whether a URL the page loads is a path on the service (or inline data).
func isLocal(u string) bool {
	return strings.HasPrefix(u, "data:") || (strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//"))
}

func TestPageScriptIsEmbedded(t *testing.T) {
	script, mediaType, ok := openapi.Asset(openapi.ScriptFile)
	if !ok {
		t.Fatalf("%s is not embedded: `make docs-ui` copies it in from server/openapi/docs-ui", openapi.ScriptFile)
	}
	if mediaType != "text/javascript; charset=utf-8" || len(script) < 100_000 {
		t.Errorf("%s: %d bytes of %s", openapi.ScriptFile, len(script), mediaType)
	}
	if bytes.Contains(script, []byte("fonts.googleapis.com")) {
		t.Errorf("%s loads fonts from the internet", openapi.ScriptFile)
	}
}

func TestAssetRefusesWhatIsNotAnAsset(t *testing.T) {
	for _, name := range []string{"", "../openapi.yaml", "openapi.yaml", "assets/index.html", "/etc/passwd", "nope.js"} {
		if _, _, ok := openapi.Asset(name); ok {
			t.Errorf("Asset(%q) answered", name)
		}
	}
}

// A YAML plain scalar with a comma or colon inside a flow mapping silently splits into a
// stray key; no key of the document is prose.
func TestNoKeyIsProse(t *testing.T) {
	raw, err := openapi.Document()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				if strings.Contains(k, " ") || strings.HasSuffix(k, ".") {
					t.Errorf("%s has the key %q", path, k)
				}
				walk(path+"."+k, child)
			}
		case []any:
			for i, child := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), child)
			}
		}
	}
	walk("$", doc)
}
