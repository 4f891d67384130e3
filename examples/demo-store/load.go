package demostore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// LoadShopify reads a catalogue from a Shopify /products.json body saved to a file: either
// the {"products": [...]} object or a bare array of products.
func LoadShopify(path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	c, err := ParseShopify(data)
	if err != nil {
		return nil, fmt.Errorf("load catalog %s: %w", path, err)
	}
	return c, nil
}

// ParseShopify reads a catalogue from Shopify storefront JSON (see LoadShopify). Prices
// are kept exactly. Collections are derived: one per product_type, in order of first
// appearance, then one per tag carried by at least two products (at most 40, the most
// used first); a product's Category is its product_type collection, else its first tag
// collection.
func ParseShopify(data []byte) (*Catalog, error) {
	data = bytes.TrimSpace(data)
	var raw []sourceProduct
	if len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, &raw); err != nil {
			return nil, err
		}
	} else {
		var wrapped struct {
			Products []sourceProduct `json:"products"`
		}
		if err := json.Unmarshal(data, &wrapped); err != nil {
			return nil, err
		}
		raw = wrapped.Products
	}
	c := &Catalog{byHandle: make(map[string]int, len(raw))}
	for _, sp := range raw {
		p, err := sp.product()
		if err != nil {
			return nil, fmt.Errorf("product %d (%s): %w", sp.ID, sp.Handle, err)
		}
		if _, dup := c.byHandle[p.Handle]; dup {
			continue // merged pages can repeat a product
		}
		p.Index = len(c.loaded)
		c.byHandle[p.Handle] = p.Index
		c.loaded = append(c.loaded, p)
	}
	c.n = len(c.loaded)
	c.deriveCollections()
	c.index()
	return c, nil
}

func (c *Catalog) deriveCollections() {
	byHandle := map[string]int{}
	add := func(title string, i int) int {
		h := slug(title)
		if h == "" || h == "all" {
			return -1
		}
		k, ok := byHandle[h]
		if !ok {
			k = len(c.collections)
			byHandle[h] = k
			c.collections = append(c.collections, Collection{
				ID: 310_000_000_000 + int64(k), Handle: h, Title: title,
			})
		}
		col := &c.collections[k]
		if n := len(col.Products); n == 0 || col.Products[n-1] != int32(i) {
			col.Products = append(col.Products, int32(i))
		}
		return k
	}
	for i := range c.loaded {
		if t := strings.TrimSpace(c.loaded[i].ProductType); t != "" {
			if k := add(t, i); k >= 0 {
				c.loaded[i].Category = c.collections[k].Handle
			}
		}
	}
	// Tags used by at least two products become collections too, unless a product type
	// already took the handle.
	counts := map[string]int{}
	titles := map[string]string{}
	for _, p := range c.loaded {
		seen := map[string]bool{}
		for _, t := range p.Tags {
			h := slug(t)
			if h == "" || seen[h] {
				continue
			}
			seen[h] = true
			counts[h]++
			if _, ok := titles[h]; !ok {
				titles[h] = strings.TrimSpace(t)
			}
		}
	}
	var tags []string
	for h, n := range counts {
		if _, taken := byHandle[h]; n >= 2 && !taken {
			tags = append(tags, h)
		}
	}
	sort.Slice(tags, func(a, b int) bool {
		if counts[tags[a]] != counts[tags[b]] {
			return counts[tags[a]] > counts[tags[b]]
		}
		return tags[a] < tags[b]
	})
	if len(tags) > 40 {
		tags = tags[:40]
	}
	keep := map[string]bool{}
	for _, h := range tags {
		keep[h] = true
	}
	for i := range c.loaded {
		for _, t := range c.loaded[i].Tags {
			if h := slug(t); keep[h] {
				if k := add(titles[h], i); k >= 0 && c.loaded[i].Category == "" {
					c.loaded[i].Category = c.collections[k].Handle
				}
			}
		}
	}
}

type sourceProduct struct {
	ID          int64           `json:"id"`
	Title       string          `json:"title"`
	Handle      string          `json:"handle"`
	BodyHTML    string          `json:"body_html"`
	PublishedAt string          `json:"published_at"`
	CreatedAt   string          `json:"created_at"`
	UpdatedAt   string          `json:"updated_at"`
	Vendor      string          `json:"vendor"`
	ProductType string          `json:"product_type"`
	Tags        json.RawMessage `json:"tags"`
	Variants    []struct {
		ID             int64   `json:"id"`
		Title          string  `json:"title"`
		Option1        *string `json:"option1"`
		Option2        *string `json:"option2"`
		Option3        *string `json:"option3"`
		SKU            *string `json:"sku"`
		Available      *bool   `json:"available"`
		Price          any     `json:"price"`
		CompareAtPrice any     `json:"compare_at_price"`
		Grams          int     `json:"grams"`
		ImageID        *int64  `json:"image_id"`
		FeaturedImage  *struct {
			ID int64 `json:"id"`
		} `json:"featured_image"`
	} `json:"variants"`
	Images []struct {
		ID         int64   `json:"id"`
		Position   int     `json:"position"`
		Src        string  `json:"src"`
		Width      int     `json:"width"`
		Height     int     `json:"height"`
		Alt        *string `json:"alt"`
		VariantIDs []int64 `json:"variant_ids"`
	} `json:"images"`
	Options []struct {
		Name   string   `json:"name"`
		Values []string `json:"values"`
	} `json:"options"`
}

func (sp sourceProduct) product() (Product, error) {
	if sp.Handle == "" {
		return Product{}, fmt.Errorf("no handle")
	}
	p := Product{
		ID: sp.ID, Handle: sp.Handle, Title: sp.Title, BodyHTML: sp.BodyHTML,
		Vendor: sp.Vendor, ProductType: sp.ProductType,
		CreatedAt: parseTime(sp.CreatedAt), UpdatedAt: parseTime(sp.UpdatedAt), PublishedAt: parseTime(sp.PublishedAt),
	}
	switch {
	case len(sp.Tags) > 0 && sp.Tags[0] == '[':
		if err := json.Unmarshal(sp.Tags, &p.Tags); err != nil {
			return Product{}, fmt.Errorf("tags: %w", err)
		}
	case len(sp.Tags) > 0 && sp.Tags[0] == '"':
		var s string
		if err := json.Unmarshal(sp.Tags, &s); err != nil {
			return Product{}, fmt.Errorf("tags: %w", err)
		}
		for t := range strings.SplitSeq(s, ",") {
			if t = strings.TrimSpace(t); t != "" {
				p.Tags = append(p.Tags, t)
			}
		}
	}
	for _, o := range sp.Options {
		p.Options = append(p.Options, Option{Name: o.Name, Values: o.Values})
	}
	for _, sv := range sp.Variants {
		v := Variant{ID: sv.ID, Title: sv.Title, Grams: sv.Grams, Available: true}
		for _, o := range []*string{sv.Option1, sv.Option2, sv.Option3} {
			if o != nil {
				v.OptionValues = append(v.OptionValues, *o)
			}
		}
		if sv.SKU != nil {
			v.SKU = *sv.SKU
		}
		if sv.Available != nil {
			v.Available = *sv.Available
		}
		var err error
		if v.Price, err = moneyOf(sv.Price); err != nil {
			return Product{}, fmt.Errorf("variant %d price: %w", sv.ID, err)
		}
		if v.CompareAtPrice, err = moneyOf(sv.CompareAtPrice); err != nil {
			return Product{}, fmt.Errorf("variant %d compare_at_price: %w", sv.ID, err)
		}
		v.compareAtZero = v.CompareAtPrice == 0 && sv.CompareAtPrice != nil && sv.CompareAtPrice != ""
		switch {
		case sv.ImageID != nil:
			v.ImageID = *sv.ImageID
		case sv.FeaturedImage != nil:
			v.ImageID = sv.FeaturedImage.ID
		}
		p.Variants = append(p.Variants, v)
	}
	for k, si := range sp.Images {
		im := Image{ID: si.ID, Position: si.Position, Src: si.Src, Width: si.Width, Height: si.Height, VariantIDs: si.VariantIDs}
		if im.Position == 0 {
			im.Position = k + 1
		}
		if si.Alt != nil {
			im.Alt = *si.Alt
		}
		if im.VariantIDs == nil {
			im.VariantIDs = []int64{}
		}
		p.Images = append(p.Images, im)
	}
	return p, nil
}

// moneyOf reads a price that is a decimal string, a JSON number or null (zero).
func moneyOf(v any) (Money, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case string:
		if x == "" {
			return 0, nil
		}
		return ParseMoney(x)
	case float64:
		return ParseMoney(fmt.Sprintf("%.2f", x))
	}
	return 0, fmt.Errorf("unexpected %T", v)
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return epoch
	}
	return t
}
