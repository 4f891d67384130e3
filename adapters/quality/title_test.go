package quality

import "testing"

func TestTitleMatches(t *testing.T) {
	const (
		hm       = "http://www.hm.com/us/product/61358?article=61358-A"
		overstck = "https://www.overstock.com/Bedding-Bath/Dream-Man-Arm-Pillow/5894513/product.html"
		tiffany  = "http://www.tiffany.com/collections/tiffany-yellow-diamonds/tiffany-novo-diamond-ring-30399048"
		pillow   = "https://ostrichpillow.com/products/ostrichpillow-original"
		bn       = "https://www.barnesandnoble.com/w/astrophysics/1125419184"
	)
	const (
		hmTitle      = "Bomber Jacket | Black | Women | H&M US"
		overTitle    = "Dream Man Arm Pillow - Free Shipping On Orders Over $45 - Overstock.com - 13600956"
		tiffanyTitle = "Tiffany Novo® ring in platinum and 18k gold with a Tiffany Yellow Diamond. | Tiffany & Co."
		pillowTitle  = "OSTRICHPILLOW® Original | OSTRICHPILLOW®"
		bnTitle      = "Astrophysics for People in a Hurry by Neil deGrasse Tyson, Hardcover | Barnes & Noble®"
	)
	for _, tc := range []struct {
		name                      string
		predicted, labelled, page string
		right                     bool
	}{
		{"the product-name segment", "Bomber Jacket", hmTitle, hm, true},
		{"case and punctuation aside", "BOMBER-JACKET", hmTitle, hm, true},
		{"with its neighbouring segments", "Bomber Jacket Black Women", hmTitle, hm, true},
		{"the whole title, store name included", hmTitle, hmTitle, hm, false},
		{"store name and price around the name", "H&M Bomber Jacket $24.99", hmTitle, hm, false},
		{"the store's name alone", "H&M", hmTitle, hm, false},
		{"a neighbouring segment alone", "Black", hmTitle, hm, false},
		{"a fragment of the name", "Jacket", hmTitle, hm, false},
		{"nothing", "", hmTitle, hm, false},
		{"a menu", "Shop By Department", hmTitle, hm, false},
		{"the first segment left, not the longest", "Dream Man Arm Pillow", overTitle, overstck, true},
		{"a banner segment of the labelled title", "Free Shipping On Orders Over $45", overTitle, overstck, false},
		{"an item number segment", "13600956", overTitle, overstck, false},
		{"the store's name inside the product's name stays", "Tiffany Novo® Diamond Ring", tiffanyTitle, tiffany, true},
		{"a store name ending in Co.", "Tiffany Novo® ring | Tiffany & Co.", tiffanyTitle, tiffany, false},
		{"a product named after its store", "OSTRICHPILLOW® Original", pillowTitle, pillow, true},
		{"the start of a name that runs on", "Astrophysics for People in a Hurry", bnTitle, bn, true},
		{"a store name spelled with &", "Astrophysics for People in a Hurry - Barnes & Noble", bnTitle, bn, false},
		{"a name shortened", "Surface Laptop", "Buy Surface Laptop - Microsoft Store", "https://www.microsoft.com/en-us/store/d/x", true},
		{"a name cut to one word of three", "Surface", "Buy Surface Laptop - Microsoft Store", "https://www.microsoft.com/en-us/store/d/x", false},
		{"one word besides the product in four", "Adidas Wanderlust Festival Poncho", "Wanderlust Festival Poncho", "https://www.adidas.com/us/x.html", true},
		{"two words besides the product in five", "Adidas Originals Wanderlust Festival Poncho", "Wanderlust Festival Poncho", "https://www.adidas.com/us/x.html", false},
		{"a title nothing but the store's name is taken whole", "GODIVA", "GODIVA", "http://www.godiva.com/x/1.html", true},
	} {
		if got := TitleMatches(tc.predicted, tc.labelled, tc.page); got != tc.right {
			t.Errorf("%s: TitleMatches(%q, %q) = %v, want %v", tc.name, tc.predicted, tc.labelled, got, tc.right)
		}
	}
}

func TestStoreNameSegments(t *testing.T) {
	for _, tc := range []struct {
		page, segment string
		named         bool
	}{
		{"http://www.hm.com/us/product/1", "H&M US", true},
		{"https://www.barnesandnoble.com/w/x/1", "Barnes & Noble®", true},
		{"http://www.homedepot.com/p/x/1", "The Home Depot", true},
		{"https://www.amazon.com/x/dp/B01", "Amazon.com", true},
		{"https://www.amazon.fr/dp/B01", "Amazon.fr", true},
		{"http://www.sciencebobstore.com/goo/", "Science Bob Store", true},
		{"https://www.microsoft.com/en-us/store/d/x", "Microsoft Store", true},
		{"http://www.tiffany.com/x", "Tiffany & Co.", true},
		{"http://www.tiffany.com/x", "Tiffany Novo® ring", false},
		{"https://ostrichpillow.com/products/x", "OSTRICHPILLOW® Original", false},
		{"http://www.hm.com/us/product/1", "Rhythm Shirt", false},
		{"http://www.bkstr.com/ProductDisplay", "Stanford University", false},
	} {
		if got := storeOf(tc.page).named(tc.segment); got != tc.named {
			t.Errorf("%q on %s: store's name %v, want %v", tc.segment, tc.page, got, tc.named)
		}
	}
}
