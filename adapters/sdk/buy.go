package sdk

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/phrases"
)

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

// buyControls is where a page's buy controls are looked for. The descendant axis selects
// what "//button" would, in the same order, in one walk of the page; the host's XPath
// engine reads "//" as a step to the children of every node.
const buyControls = "/descendant::button | /descendant::input[@type='submit' or @type='button' or @type='image'] | /descendant::a[@role='button' or contains(@class,'btn') or contains(@class,'button') or contains(@id,'cart') or contains(@id,'Cart')]"

// BuyControls returns the page's controls that put the product in a cart or buy it (by
// their text, value, id, class, name or label, in the languages stores use), enabled and
// disabled, each in document order. A product page has one or two; a listing has one
// per tile.
func BuyControls(root Node) (enabled, disabled []Node) {
	controls := Nodes(root.Find(buyControls))
	if len(controls) == 0 {
		return nil, nil
	}
	// One host call per attribute for all the controls, rather than one per control.
	attrs := make([][]string, 0, 6)
	for _, name := range []string{"id", "class", "name", "value", "aria-label", "title"} {
		attrs = append(attrs, controls.Attr(name))
	}
	texts := controls.Text()
	disabledAttr := controls.Attr("disabled")
	var desc strings.Builder
	for i, n := range controls {
		// The description is built in one piece and lower-cased whole, which reads the
		// same as lower-casing each part: a space ends every part.
		desc.Reset()
		size := len(attrs)
		for _, a := range attrs {
			size += len(a[i])
		}
		text := texts[i]
		if len(text) >= 60 {
			text = ""
		}
		desc.Grow(size + len(text))
		for _, a := range attrs {
			desc.WriteString(a[i])
			desc.WriteByte(' ')
		}
		desc.WriteString(text)
		d := strings.ToLower(desc.String())
		if !buyPhrases.In(d) || strings.Contains(d, "wishlist") || strings.Contains(d, "wish-list") {
			continue
		}
		// An absent attribute and an empty one both read "": disabled="" is written
		// as the bare word, so ask the control itself when it might be either.
		if disabledAttr[i] != "" || strings.Contains(d, "disabled") || hasAttr(n, "disabled") {
			disabled = append(disabled, n)
			continue
		}
		enabled = append(enabled, n)
	}
	return enabled, disabled
}

// hasAttr reports whether n carries the attribute name, even empty.
func hasAttr(n Node, name string) bool {
	_, ok := n.AttrOK(name)
	return ok
}

// BuyButtons counts the page's buy controls (see BuyControls), enabled and disabled.
func BuyButtons(root Node) (enabled, disabled int) {
	e, d := BuyControls(root)
	return len(e), len(d)
}

// buyPhrases holds buyWords, so that a control's description is read once rather than
// once for every word.
var buyPhrases = phrases.New(buyWords)
