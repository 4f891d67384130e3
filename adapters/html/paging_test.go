package html

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

func TestIsNextLabel(t *testing.T) {
	for s, want := range map[string]bool{
		"Next": true, "Next page »": true, "»": true, "›": true, "Suivant": true, "weiter ›": true,
		"« Previous page": false, "‹": false, "Page 2": false, "": false, "Next-gen gadgets": false,
	} {
		if got := isNextLabel(s); got != want {
			t.Errorf("isNextLabel(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzIsNextLabel checks that isNextLabel reads every label as its first version did,
// kept here as the reference: it lower-cased the label, trimmed arrows and spaces off it
// and looked the word up in a map.
func FuzzIsNextLabel(f *testing.F) {
	for _, s := range []string{"Next", "Next page »", "»", "›", " › ", "Suivant", "weiter ›", "« Previous page", "‹", "Page 2", "",
		"NÄCHSTE SEITE", "next\u00a0", "下一页 ❯", "Next-gen gadgets", "\xff", "→→", ">"} {
		f.Add(s)
	}
	words := map[string]bool{
		"next": true, "next page": true, "weiter": true, "nächste": true, "nächste seite": true,
		"suivant": true, "page suivante": true, "siguiente": true, "página siguiente": true,
		"successivo": true, "pagina successiva": true, "avanti": true, "volgende": true,
		"próxima": true, "próximo": true, "seguinte": true, "nästa": true, "næste": true,
		"neste": true, "następna": true, "další": true, "次へ": true, "下一页": true,
	}
	reference := func(s string) bool {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" {
			return false
		}
		trimmed := strings.TrimSpace(strings.Trim(s, "›»→>⟩❯ \u00a0"))
		if trimmed == "" {
			return strings.ContainsAny(s, "›»→>❯")
		}
		return words[trimmed]
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isNextLabel(s), reference(s); got != want {
			t.Fatalf("isNextLabel(%q) = %v, the first version %v", s, got, want)
		}
	})
}

// numberedPage is page n of 4 of a category whose pagination, after the first page,
// shows numbers only: its "next" is an icon without words, and the relative links are
// written as the site writes them.
func numberedPage(n int) string {
	var bar strings.Builder
	for k := 1; k <= 4; k++ {
		fmt.Fprintf(&bar, `<a href="?page=%d">%d</a> `, k, k)
	}
	if n == 1 {
		bar.WriteString(`<a href="/shop/rope?page=2">Next</a>`)
	} else if n < 4 {
		fmt.Fprintf(&bar, `<a class="icon-next" href="/shop/rope?page=%d"><svg></svg></a>`, n+1)
	}
	return fmt.Sprintf(`<html><body><p>Page %[1]d of 4</p><ul>
<li><a href="/products/r%[1]da"><h3>A</h3></a><span class="price">$1.00</span></li>
<li><a href="/products/r%[1]db"><h3>B</h3></a><span class="price">$2.00</span></li>
</ul><nav class="pagination">%[2]s</nav></body></html>`, n, bar.String())
}

// A page named ahead goes on to the next number's page when it links there, whatever the
// link says, and the last page, which does not, ends the collection.
func TestListGoesOnFromAPageNamedAheadThatLinksToTheNextNumber(t *testing.T) {
	pages := sdktest.Pages{}
	collection := site + "/shop/rope"
	for n := 1; n <= 4; n++ {
		u := collection
		if n > 1 {
			u = fmt.Sprintf("%s?page=%d", collection, n)
		}
		pages[u] = htmlDoc(u, numberedPage(n))
	}
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: pages}
	p1, err := set.List(context.Background(), "", collection, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p1.Ahead) != 3 || p1.Total != 8 {
		t.Fatalf("page 1: ahead %q, total %d; want 3 pages of 8 products", p1.Ahead, p1.Total)
	}
	for i, cursor := range p1.Ahead {
		p, err := set.List(context.Background(), "", collection, cursor, p1.Total)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if i+1 < len(p1.Ahead) {
			want = p1.Ahead[i+1]
		}
		if p.Next != want || len(p.Listings) != 2 {
			t.Errorf("%s: next %q, %d listings; want next %q, 2 listings", cursor, p.Next, len(p.Listings), want)
		}
	}
}
