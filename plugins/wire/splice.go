package wire

import (
	"fmt"
	"strings"

	"github.com/stockroom/stockroom/core/adapter"
)

// Member is a member of an answer that an adapter gave as a JSON value the host already
// holds (ABI 1.2, answer_splice) instead of writing it into its answer. Raw "" is a
// missing value: the member is left out.
type Member struct {
	Name string
	// Raw is valid JSON, as every value of a document.Session is: it is not checked again.
	Raw string
}

// spliceable are the members answer_splice takes: the long lists and the large texts, the
// parts worth not copying through a guest.
var spliceable = []string{"listings", "product.images", "product.options", "product.variants", "product.description", "product.description_html"}

// CheckMember reports whether answer_splice takes name.
func CheckMember(name string) error {
	for _, s := range spliceable {
		if s == name {
			return nil
		}
	}
	return fmt.Errorf("answer_splice: %q is not a member it takes (%s)", name, strings.Join(spliceable, ", "))
}

// Splice decodes members as Decode decodes an answer and puts them into resp in place of
// the members of those names. Product members are dropped when the answer has no product
// (an outcome).
func Splice(resp *adapter.Response, members []Member) error {
	if len(members) == 0 {
		return nil
	}
	// One small answer holding just the spliced members, decoded by the same rules as a
	// whole one: a member is accepted or refused alike however it arrives.
	b := []byte(`{"product":{`)
	n := 0
	for _, m := range members {
		if err := CheckMember(m.Name); err != nil {
			return err
		}
		name, ok := strings.CutPrefix(m.Name, "product.")
		if !ok || m.Raw == "" {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), name...), `":`...)
		b = append(b, m.Raw...)
		n++
	}
	b = append(b, '}')
	// Listings in the plain form are decoded where they lie: a Shopify page's listings
	// and their records are hundreds of kilobytes, which a copy would double until they
	// are written. Any other form goes through the general decoder.
	var listings []adapter.Listing
	for _, m := range members {
		if m.Name != "listings" || m.Raw == "" {
			continue
		}
		if l, ok := plainListings(m.Raw); ok {
			listings = l
			continue
		}
		listings = nil
		b = append(append(b, `,"listings":`...), m.Raw...)
	}
	b = append(b, '}')
	dec, err := decode(b)
	if err != nil {
		return fmt.Errorf("spliced members: %w", err)
	}
	if listings != nil {
		dec.Listings = listings
	}
	for _, m := range members {
		if m.Name == "listings" {
			resp.Listings = dec.Listings
			continue
		}
		p := resp.Product
		if p == nil {
			continue
		}
		switch m.Name {
		case "product.images":
			p.Images = dec.Product.Images
		case "product.options":
			p.Options = dec.Product.Options
		case "product.variants":
			p.Variants = dec.Product.Variants
		case "product.description":
			p.Description = dec.Product.Description
		case "product.description_html":
			p.DescriptionHTML = dec.Product.DescriptionHTML
		}
	}
	return nil
}
