package sdk

import "strings"

// buyWords mark a control that puts the product in a cart or buys it, in its text, value,
// id, class, name or label.
var buyWords = []string{
	"add to cart", "add to bag", "add to basket", "add to trolley", "buy now", "buy it now", "addtocart", "add-to-cart", "add_to_cart",
	"addtobag", "add-to-bag", "addtobasket", "add-to-basket", "buy-button", "buybutton", "buy_button",
	"in den warenkorb", "in den einkaufswagen", "jetzt kaufen", "warenkorb", "ajouter au panier", "acheter", "añadir al carrito",
	"agregar al carrito", "añadir a la cesta", "comprar", "aggiungi al carrello", "acquista", "do koszyka", "kup teraz",
	"в корзину", "купить", "adicionar ao carrinho", "in winkelwagen", "bestellen", "lägg i varukorgen", "læg i kurv", "legg i handlekurv",
	"kosárba", "do košíku", "do košíka", "kúpiť", "我要購買", "do košarice", "v košarico", "sepete ekle", "lisää ostoskoriin", "į krepšelį", "ielikt grozā", "в кошик",
	"加入購物車", "加入购物车", "立即購買", "カートに入れる", "장바구니", "أضف إلى",
}

// BuyButtons counts the page's controls that put the product in a cart or buy it (by
// their text, value, id, class, name or label, in the languages stores use), enabled and
// disabled. A product page has one or two; a listing has one per tile.
func BuyButtons(root Node) (enabled, disabled int) {
	for _, n := range root.Find("//button | //input[@type='submit' or @type='button' or @type='image'] | //a[@role='button' or contains(@class,'btn') or contains(@class,'button') or contains(@id,'cart') or contains(@id,'Cart')]") {
		desc := strings.ToLower(n.Attr("id") + " " + n.Attr("class") + " " + n.Attr("name") + " " + n.Attr("value") + " " + n.Attr("aria-label") + " " + n.Attr("title"))
		if t := n.Text(); len(t) < 60 {
			desc += " " + strings.ToLower(t)
		}
		if !containsWord(desc, buyWords) || strings.Contains(desc, "wishlist") || strings.Contains(desc, "wish-list") {
			continue
		}
		if _, off := n.AttrOK("disabled"); off || strings.Contains(desc, "disabled") {
			disabled++
			continue
		}
		enabled++
	}
	return enabled, disabled
}

func containsWord(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
