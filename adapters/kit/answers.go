package kit

import (
	"encoding/json"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
)

// The answers below are what the kit prints and what test cases are compared with. Each
// has every member present (null, "", 0 or [] when there is nothing), so that a key of an
// expected file that no answer has is known to be a mistake.

// detectAnswer is the detection the service goes by: the most confident at
// adapter.MinConfidence or more, or an empty platform when no adapter claims the page.
func detectAnswer(dets []adapter.Detection) map[string]any {
	d := adapter.Detection{}
	if len(dets) > 0 {
		d = dets[0]
	}
	return map[string]any{"platform": d.Platform, "confidence": d.Confidence, "evidence": nonNil(d.Evidence)}
}

// discoverAnswer is the collections the adapters of platform found on a home page, and
// which adapter found them.
func discoverAnswer(platform string, d adapter.Discovery, err error) map[string]any {
	cols := make([]any, 0, len(d.Collections))
	for _, c := range d.Collections {
		cols = append(cols, map[string]any{"url": c.URL, "handle": c.Handle, "title": c.Title,
			"products_count": deref(c.ProductsCount), "currency": c.Currency})
	}
	return map[string]any{"platform": platform, "adapter": d.Adapter, "collections": cols, "error": errorText(err)}
}

// listAnswer is one page of a collection as the adapters of platform listed it.
func listAnswer(platform string, lp adapter.ListPage, err error) map[string]any {
	listings := make([]any, 0, len(lp.Listings))
	for _, l := range lp.Listings {
		images := make([]any, 0, len(l.Images))
		for _, im := range l.Images {
			images = append(images, imageJSON(im))
		}
		var record any
		if len(l.Record) > 0 {
			_ = json.Unmarshal(l.Record, &record)
		}
		listings = append(listings, map[string]any{"url": l.URL, "id": l.ID, "title": l.Title,
			"price": price(l.Price, nil), "images": images, "record": record})
	}
	return map[string]any{"platform": platform, "adapter": lp.Adapter, "listings": listings, "next": lp.Next,
		"total": lp.Total, "ahead": nonNil(lp.Ahead), "error": errorText(err)}
}

// extractAnswer is an extraction's outcome, its message and the v2 product (null unless
// the outcome is success).
func extractAnswer(res adapter.Result, pageURL string) map[string]any {
	var p any
	if res.Product != nil {
		p = V2(res.Product, pageURL)
	}
	return map[string]any{"outcome": string(res.Outcome), "message": res.Message, "product": p}
}

// printedExtraction is an extraction as `stockroom adapter run` prints it: the product,
// or the outcome and its message.
func printedExtraction(answer map[string]any) map[string]any {
	if p, ok := answer["product"].(map[string]any); ok {
		return p
	}
	return map[string]any{"outcome": answer["outcome"], "message": answer["message"]}
}

// imageJSON is an image in the v2 product's form.
func imageJSON(im product.Image) map[string]any {
	return map[string]any{
		"id": im.ID, "url": im.URL, "alt_text": deref(im.AltText), "position": im.Position,
		"width": deref(im.Width), "height": deref(im.Height), "variant_ids": nonNil(im.VariantIDs), "attributes": nil,
	}
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
