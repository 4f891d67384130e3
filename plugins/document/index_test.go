package document

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// Paths through more small objects than the session keeps find what gjson finds, whether
// an object's members are kept, dropped, or kept again; and empty objects hold nothing.
func TestRecentObjectsAgreeWithGJSON(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 20 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"image":{"src":"s%d","w":%d,"alt":null},"empty":{},"v":[{"p":"%d.50"}]}`, i, i*10, i)
	}
	b.WriteString(`]}`)
	root := gjson.Parse(b.String())
	s := NewSession(nil, 0)
	for round := range 3 {
		for i := range 20 {
			n := (i*7 + round) % 20 // an order that revisits objects after others pushed them out
			for _, field := range []string{"image.src", "image.w", "image.alt", "image.none", "empty.x", "v.0.p", "v.0.q"} {
				path := fmt.Sprintf("items.%d.%s", n, field)
				if got, want := s.get(root, path), root.Get(path); got.Raw != want.Raw || got.Type != want.Type {
					t.Fatalf("%s: session finds %q, gjson %q", path, got.Raw, want.Raw)
				}
			}
		}
	}
}
