package rank_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/rank"
)

// stockWording is how stores of one language write a product's stock: on a stock line,
// in stock and sold out, and on the buy button that replaces "Add to cart" when it is
// sold out.
var stockWording = []struct {
	language, inStock, outOfStock, soldOutButton string
}{
	{"English", "In stock", "Out of stock", "Notify me when available"},
	{"German", "Auf Lager", "Derzeit nicht verfügbar", "Ausverkauft"},
	{"French", "En stock", "Rupture de stock", "M'alerter"},
	{"Spanish", "Disponible", "Agotado", "Avísame"},
	{"Italian", "Disponibilità immediata", "Non disponibile", "Esaurito"},
	{"Dutch", "Op voorraad", "Niet op voorraad", "Uitverkocht"},
	{"Portuguese", "Em estoque", "Produto indisponível", "Avise-me quando chegar"},
	{"Polish", "Produkt dostępny", "Produkt niedostępny", "Powiadom mnie"},
	{"Swedish", "Finns i lager", "Tillfälligt slut i lager", "Slutsåld"},
	{"Danish", "På lager", "Ikke på lager", "Udsolgt"},
	{"Norwegian", "På lager", "Ikke på lager", "Utsolgt"},
	{"Czech", "Skladem", "Není skladem", "Vyprodáno"},
	{"Romanian", "În stoc", "Stoc epuizat", "Anunță-mă"},
	{"Turkish", "Stokta var", "Stokta yok", "Tükendi"},
	{"Japanese", "在庫あり", "在庫切れ", "売り切れ"},
	{"Chinese", "现货", "暂时缺货", "到货通知"},
	{"Korean", "재고 있음", "일시품절", "품절"},
	{"Arabic", "متوفر في المخزون", "غير متوفر حاليا", "نفذت الكمية"},
}

// TestStockWordingInManyLanguages reads each language's stock line, in stock and sold
// out, and its sold-out buy button, on a small page of its own with a price on show.
func TestStockWordingInManyLanguages(t *testing.T) {
	page := func(body string) string {
		return `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1><span class="price">49,00 €</span>` + body + `</div>`
	}
	for _, w := range stockWording {
		for _, tc := range []struct {
			name, html, want string
		}{
			{"stock line in stock", page(`<p class="availability">` + w.inStock + `</p><button class="add-to-cart">+</button>`), rank.InStock},
			{"stock line sold out", page(`<p class="availability">` + w.outOfStock + `</p>`), rank.OutOfStock},
			{"labelled stock line sold out", page(`<p>Availability: ` + w.outOfStock + `</p>`), rank.OutOfStock},
			{"sold-out button", page(`<button type="submit" class="btn" disabled>` + w.soldOutButton + `</button>`), rank.OutOfStock},
		} {
			t.Run(w.language+"/"+tc.name, func(t *testing.T) {
				d := rank.Default().Rank(gather(t, "https://www.lumen.example/p/lamp", tc.html))
				if got, ok := d.Best(rank.Availability); !ok || got.Value != tc.want {
					var b strings.Builder
					d.Explain(&b)
					t.Errorf("availability %v, want %s\n%s", got, tc.want, b.String())
				}
			})
		}
	}
	if n := len(stockWording); n < 10 {
		t.Errorf("stock wording of %d languages, want at least ten", n)
	}
}

// TestSoldOutButtonsOfSizesOrTilesSayNothing checks that a page of many sold-out buttons
// (a size picker, other products' tiles) is not read as sold out by them.
func TestSoldOutButtonsOfSizesOrTilesSayNothing(t *testing.T) {
	var sizes strings.Builder
	for _, s := range []string{"XS", "S", "M", "L", "XL"} {
		fmt.Fprintf(&sizes, `<button class="size">%s - Sold out</button>`, s)
	}
	html := `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1><span class="price">49,00 €</span>` + sizes.String() + `</div>`
	g := gather(t, "https://www.lumen.example/p/lamp", html)
	if c := find(g, rank.Availability, rank.OutOfStock, "button says"); c != nil {
		t.Errorf("a size picker's sold-out buttons read as the product's stock: %+v", c)
	}
}

// TestAPreOrderButtonSellsTheProduct checks that a buy button reading "Pre-order" is read
// as available to buy.
func TestAPreOrderButtonSellsTheProduct(t *testing.T) {
	html := `<title>Lamp | Lumen</title><div class="product"><h1>Lamp</h1><span class="price">$49.00</span>
<button type="submit" class="btn">Pre-order now</button></div>`
	g := gather(t, "https://www.lumen.example/p/lamp", html)
	if c := find(g, rank.Availability, rank.InStock, "button says"); c == nil {
		t.Errorf("no in-stock candidate from the pre-order button among %+v", g.Candidates[rank.Availability])
	}
}
