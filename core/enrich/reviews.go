package enrich

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom/core/product"
)

// Reviews is the reviews block of a product (api-decisions.md, "Reviews"): what the
// page's own structured data says, normalized. The type lives with the product, which
// stores it.
type Reviews = product.Reviews

// Review is one review of a Reviews block.
type Review = product.Review

// MaxReviews bounds the reviews kept per product.
const MaxReviews = 50

// ReviewsFromJSONLD returns the reviews block of the first product in the decoded JSON-LD
// documents that carries an aggregateRating or reviews, else of stand-alone
// AggregateRating and Review nodes; nil when the page has no rating data. Each element
// of jsonld is one decoded document (an object, an array, or an object with @graph), as
// encoding/json produces it. Microdata converted to the same map shape works too.
func ReviewsFromJSONLD(jsonld []any) *Reviews {
	var nodes []map[string]any
	for _, doc := range jsonld {
		collect(doc, &nodes, 0)
	}
	// A product with rating data first; a ProductGroup (a product with variants) is one.
	for _, n := range nodes {
		if (hasType(n, "Product") || hasType(n, "ProductGroup")) && (n["aggregateRating"] != nil || n["review"] != nil || n["reviews"] != nil) {
			return buildReviews(n["aggregateRating"], append(asList(n["review"]), asList(n["reviews"])...))
		}
	}
	var agg any
	var revs []any
	for _, n := range nodes {
		switch {
		case hasType(n, "AggregateRating") && agg == nil:
			agg = n
		case hasType(n, "Review"):
			revs = append(revs, n)
		}
	}
	if agg == nil && len(revs) == 0 {
		return nil
	}
	return buildReviews(agg, revs)
}

func buildReviews(agg any, revs []any) *Reviews {
	out := &Reviews{Reviews: []Review{}}
	scale := 5.0
	if a, ok := agg.(map[string]any); ok {
		if r, s, ok := NormalizeRating(a["ratingValue"], a["bestRating"], a["worstRating"]); ok {
			out.AverageRating, scale = ptr(r), s
		}
		if n, ok := ParseCount(a["reviewCount"]); ok {
			out.ReviewCount = ptr(n)
		} else if n, ok := ParseCount(a["ratingCount"]); ok {
			out.ReviewCount = ptr(n)
		}
	}
	for _, rv := range revs {
		m, ok := rv.(map[string]any)
		if !ok || len(out.Reviews) == MaxReviews {
			continue
		}
		r := Review{
			Title:        textOf(first(m, "name", "headline")),
			ReviewerName: nameOf(m["author"]),
			Date:         ptrIf(NormalizeDate(str(first(m, "datePublished", "dateCreated")))),
			Content:      textOf(first(m, "reviewBody", "description", "text")),
		}
		if rr, ok := m["reviewRating"].(map[string]any); ok {
			best := rr["bestRating"]
			if best == nil {
				best = scale // a review without its own scale is on the aggregate's
			}
			if v, s, ok := NormalizeRating(rr["ratingValue"], best, rr["worstRating"]); ok {
				r.Rating = ptr(round2(v * scale / s))
			}
		}
		if r.Title == nil && r.Rating == nil && r.Content == nil {
			continue
		}
		out.Reviews = append(out.Reviews, r)
	}
	if out.AverageRating == nil && out.ReviewCount == nil && len(out.Reviews) == 0 {
		return nil
	}
	if out.AverageRating != nil || len(out.Reviews) > 0 {
		out.RatingScale = ptr(scale)
	}
	return out
}

// NormalizeRating reads a rating and its scale as pages write them: numbers or strings
// ("4.5", "4,5", "4.5 out of 5", "4.5/5", "90%"). best and worst may be nil (5 and 1,
// or 100 and 0 for a percentage). It returns the rating on the scale [0, scale] and the
// scale; ok is false when the value is missing, unparseable or outside its scale.
func NormalizeRating(value, best, worst any) (rating, scale float64, ok bool) {
	s := strings.TrimSpace(str(value))
	if s == "" {
		return 0, 0, false
	}
	scale = 5
	if strings.HasSuffix(s, "%") {
		scale = 100
		s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	}
	if i := strings.Index(s, "/"); i > 0 {
		if b, ok := parseNumber(s[i+1:]); ok && b > 0 {
			scale = b
		}
		s = s[:i]
	} else if i := strings.Index(strings.ToLower(s), "out of"); i > 0 {
		if b, ok := parseNumber(s[i+len("out of"):]); ok && b > 0 {
			scale = b
		}
		s = s[:i]
	}
	r, ok := parseNumber(s)
	if !ok {
		return 0, 0, false
	}
	if b, ok := parseNumber(str(best)); ok && b > 0 {
		scale = b
	}
	low := 0.0
	if w, ok := parseNumber(str(worst)); ok && w >= 0 && w < scale {
		low = w
	}
	if r < low || r > scale || math.IsNaN(r) {
		return 0, 0, false
	}
	return round2(r), scale, true
}

// ParseCount reads a count as pages write it: 12, "12", "1,234", "1.234", "1 234",
// "(12 reviews)". ok is false when there is no number or it is negative.
func ParseCount(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		if n < 0 || n != math.Trunc(n) {
			return 0, false
		}
		return int(n), true
	case int:
		return n, n >= 0
	}
	s := str(v)
	digits := strings.Builder{}
	started := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
			started = true
		case started && (r == ',' || r == '.' || r == ' ' || r == '\u00a0' || r == '\''):
			// thousands separators
		case started:
			goto done
		}
	}
done:
	if digits.Len() == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(digits.String())
	return n, err == nil
}

var dateLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05",
	"2006-01-02", "2006/01/02", "January 2, 2006", "Jan 2, 2006", "2 January 2006",
	"2 Jan 2006", "02.01.2006", "01/02/2006", "2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05.000Z0700", "Mon, 02 Jan 2006 15:04:05 MST",
}

// NormalizeDate returns the date part (YYYY-MM-DD) of a date as pages write it (ISO 8601,
// "January 2, 2006", "02.01.2006", "01/02/2006" read as month/day), or "" when it does not
// parse. A time with an offset keeps the page's own calendar day.
func NormalizeDate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format("2006-01-02")
		}
	}
	return ""
}

func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1) // decimal comma
	}
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' || end == 0 && s[end] == '-') {
		end++
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	return f, err == nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// collect gathers the objects of a decoded JSON-LD value, depth first, descending into
// arrays, @graph and nested objects (an offer's or a product's reviews included).
func collect(v any, out *[]map[string]any, depth int) {
	if depth > 12 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			collect(e, out, depth+1)
		}
	case map[string]any:
		*out = append(*out, x)
		for _, k := range sortedKeys(x) {
			if k == "review" || k == "reviews" || k == "aggregateRating" {
				continue // read through their product
			}
			collect(x[k], out, depth+1)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}

func hasType(m map[string]any, typ string) bool {
	for _, t := range asList(m["@type"]) {
		s := str(t)
		if s == typ || strings.HasSuffix(s, "/"+typ) || strings.HasSuffix(s, ":"+typ) {
			return true
		}
	}
	return false
}

func asList(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	default:
		return []any{x}
	}
}

func first(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil && str(v) != "" {
			return v
		}
	}
	return nil
}

// str renders a scalar JSON value as text; objects with @value or name give those.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		if len(x) > 0 {
			return str(x[0])
		}
	case map[string]any:
		if s := str(x["@value"]); s != "" {
			return s
		}
		return str(x["name"])
	}
	return ""
}

// textOf is str as plain text: markup stripped, white space squashed; nil when empty.
func textOf(v any) *string {
	s := str(v)
	if strings.ContainsAny(s, "<>") {
		s = parseHTML(s).text
	}
	return ptrIf(squash(s))
}

// nameOf reads an author: a string, a Person/Organization object, or a list of them.
func nameOf(v any) *string {
	if l, ok := v.([]any); ok && len(l) > 0 {
		v = l[0]
	}
	return textOf(v)
}

func ptrIf(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
