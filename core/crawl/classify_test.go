package crawl

import (
	"testing"

	"github.com/stockroom/stockroom/core/sitemap"
)

// What a sitemap's page is, told by its address, by the sitemap file that named it, and
// by the platform adapter's patterns when one was detected.
func TestClassifyTellsProductsFromCollections(t *testing.T) {
	const shop = "https://shop.example"
	shopify := urlRules{products: []string{"/products/*", "/collections/*/products/*"}, collections: []string{"/collections/*"}}
	custom := urlRules{products: []string{"/shop/*/*"}, collections: []string{"/shop/*"}}
	for _, tc := range []struct {
		name   string
		rules  urlRules
		url    string
		file   string // the sitemap file's name
		images bool   // the sitemap gives the page pictures
		want   pageKind
	}{
		// Shopify, by the adapter's patterns and by the host's rules alike.
		{"shopify product", shopify, "/products/linen-shirt", "sitemap_products_1.xml", false, productPage},
		{"shopify product in a collection", urlRules{}, "/collections/shirts/products/linen-shirt", "", false, productPage},
		{"shopify collection", shopify, "/collections/shirts", "sitemap_collections_1.xml", false, collectionPage},
		{"shopify home in the products sitemap", shopify, "/", "sitemap_products_1.xml", false, otherPage},
		{"shopify content page", shopify, "/pages/about-us", "sitemap_pages_1.xml", false, otherPage},
		{"shopify blog post", shopify, "/blogs/news/spring", "sitemap_blogs_1.xml", false, otherPage},
		// WooCommerce.
		{"woocommerce product", urlRules{}, "/product/hoodie/", "product-sitemap.xml", true, productPage},
		{"woocommerce category", urlRules{}, "/product-category/clothing/hoodies/", "product_cat-sitemap.xml", false, collectionPage},
		{"woocommerce shop page", urlRules{}, "/shop/", "page-sitemap.xml", false, otherPage},
		{"woocommerce tag", urlRules{}, "/product-tag/winter/", "product_tag-sitemap.xml", false, otherPage},
		{"woocommerce my account", urlRules{}, "/my-account/", "page-sitemap.xml", false, otherPage},
		{"wordpress product, pretty name unknown", urlRules{}, "/hoodie/", "wp-sitemap-posts-product-1.xml", false, productPage},
		{"wordpress product category by file", urlRules{}, "/clothing/", "wp-sitemap-taxonomies-product_cat-1.xml", false, collectionPage},
		{"wordpress page by file", urlRules{}, "/sample-page/", "wp-sitemap-posts-page-1.xml", false, otherPage},
		// Magento.
		{"magento product with pictures", urlRules{}, "/radiant-tee.html", "sitemap.xml", true, productPage},
		{"magento top category or product: the page tells", urlRules{}, "/women.html", "sitemap.xml", false, unknownPage},
		{"magento subcategory", urlRules{}, "/women/tops-women.html", "sitemap.xml", false, collectionPage},
		{"magento product under a category path", urlRules{}, "/women/tops/radiant-tee.html", "sitemap.xml", true, productPage},
		{"magento cms page", urlRules{}, "/customer-service", "sitemap.xml", false, unknownPage},
		// The segments other stores use.
		{"generic /p/", urlRules{}, "/p/desk-lamp-123", "", false, productPage},
		{"generic language and /p/", urlRules{}, "/de/p/desk-lamp-123", "", false, productPage},
		{"amazon-like /dp/", urlRules{}, "/Desk-Lamp/dp/B000123", "", false, productPage},
		{"generic /item/", urlRules{}, "/item/desk-lamp", "", false, productPage},
		{"generic /c/", urlRules{}, "/c/lighting", "", false, collectionPage},
		{"generic language and /c/", urlRules{}, "/en-gb/c/lighting", "", false, collectionPage},
		{"generic category tree", urlRules{}, "/category/home/lighting", "", false, collectionPage},
		{"a product file says product", urlRules{}, "/desk-lamp-123", "products-2.xml.gz", false, productPage},
		{"a category file says collection", urlRules{}, "/lighting", "categories.xml", false, collectionPage},
		{"nothing says", urlRules{}, "/desk-lamp-123", "sitemap-1.xml", false, unknownPage},
		// Machinery, legal pages and files, wherever they are listed.
		{"contact in a product file", urlRules{}, "/contact", "products.xml", false, otherPage},
		{"legal", urlRules{}, "/legal/imprint", "", false, otherPage},
		{"cart", urlRules{}, "/cart", "", false, otherPage},
		{"a language's home", urlRules{}, "/de/", "", false, otherPage},
		{"a picture", urlRules{}, "/p/lamp.jpg", "", false, otherPage},
		{"a feed", urlRules{}, "/collections/all.atom", "", false, otherPage},
		// The adapter's patterns win over the host's rules.
		{"adapter product pattern", custom, "/shop/lamps/desk-lamp", "", false, productPage},
		{"adapter collection pattern", custom, "/shop/lamps", "", false, collectionPage},
		{"patterns match whatever the case and slash", custom, "/Shop/Lamps/", "", false, collectionPage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := sitemap.Entry{URL: shop + tc.url}
			if tc.file != "" {
				e.File = shop + "/" + tc.file
			}
			if tc.images {
				e.Images = []string{shop + "/media/1.jpg"}
			}
			if got := tc.rules.classify(e); got != tc.want {
				t.Errorf("classify(%s in %q) = %s, want %s", tc.url, tc.file, got, tc.want)
			}
		})
	}
}
