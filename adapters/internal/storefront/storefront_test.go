package storefront

import (
	"slices"
	"testing"

	"github.com/tidwall/gjson"
)

func TestLastNumberReadsResultCounts(t *testing.T) {
	for text, want := range map[string]int{
		"Showing 1–24 of 300 results":            300,
		"Zeige 1&ndash;16 von 1.204 Ergebnissen": 1204,
		"Items 1-12 of 1,204":                    1204,
		"Affichage de 1–16 sur 45 résultats":     45,
		"Showing all 5 results":                  5,
		"14 Items":                               14,
		"Showing the single result":              0,
		"":                                       0,
	} {
		if got := LastNumber(text); got != want {
			t.Errorf("LastNumber(%q) = %d, want %d", text, got, want)
		}
	}
}

func TestPagesAhead(t *testing.T) {
	if got := PagesAhead("api:7:", 1, 4); !slices.Equal(got, []string{"api:7:2", "api:7:3", "api:7:4"}) {
		t.Errorf("PagesAhead = %q", got)
	}
	if got := PagesAhead("", 1, 1); got != nil {
		t.Errorf("one page: %q", got)
	}
	if got := len(PagesAhead("", 1, 10_000)); got != MaxAhead {
		t.Errorf("%d pages ahead, want at most %d", got, MaxAhead)
	}
	if LastPage(25, 24) != 2 || LastPage(24, 24) != 1 || LastPage(0, 24) != 0 {
		t.Error("LastPage")
	}
}

func TestPageNumber(t *testing.T) {
	if n, err := PageNumber(""); n != 1 || err != nil {
		t.Errorf(`PageNumber("") = %d, %v`, n, err)
	}
	if n, err := PageNumber("7"); n != 7 || err != nil {
		t.Errorf(`PageNumber("7") = %d, %v`, n, err)
	}
	for _, bad := range []string{"0", "-1", "x"} {
		if _, err := PageNumber(bad); err == nil {
			t.Errorf("PageNumber(%q) took it", bad)
		}
	}
}

func TestJSONKeyNamesAnyMember(t *testing.T) {
	doc := `{"attribute_pa_color":"blue","v1.2":"dot","a*b?":"glob","#":"hash"}`
	for key, want := range map[string]string{"attribute_pa_color": "blue", "v1.2": "dot", "a*b?": "glob", "#": "hash"} {
		if got := gjson.Get(doc, JSONKey(key)).String(); got != want {
			t.Errorf("member %q: %q, want %q", key, got, want)
		}
	}
}

func TestMarkupDetectionNeedsTwoSignsForAClaim(t *testing.T) {
	for _, tc := range []struct {
		evidence []string
		want     float64
	}{
		{nil, 0}, {[]string{"a"}, 0.4}, {[]string{"a", "b"}, 0.9}, {[]string{"a", "b", "c", "d"}, 0.95},
	} {
		d := MarkupDetection("shop", tc.evidence)
		if got := 0.0; d != nil {
			got = d.Confidence
			if d.Platform != "shop" || len(d.Evidence) != len(tc.evidence) {
				t.Errorf("%v: detection %+v", tc.evidence, d)
			}
			if got != tc.want {
				t.Errorf("%v: confidence %v, want %v", tc.evidence, got, tc.want)
			}
		} else if tc.want != 0 {
			t.Errorf("%v: no detection, want confidence %v", tc.evidence, tc.want)
		}
	}
}
