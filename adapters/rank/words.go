package rank

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stockroom/stockroom/adapters/internal/phrases"
)

// The vocabularies below are what stores write in their markup's class and id names and
// in the words a shopper reads, in the languages stores commonly use. None names a store.

// priceClassWords mark a price's element in its id or class.
var priceClassWords = []string{"price", "preis", "prix", "prezzo", "precio", "preco", "preço", "cena", "cijena", "prijs", "pris",
	"hinta", "fiyat", "цена", "ціна", "amount", "money"}

// struckWords are class and id words of a former or reference price: struck out, "was",
// "compare at". struckQualifiers say so only joined to a price word ("list-price",
// "regularPrice"): alone they name other things ("font-regular", "full-width").
var struckWords = []string{"old", "was", "strike", "strikethrough", "striked", "strikeout", "crossed", "crossedout",
	"compare", "compareat", "rrp", "msrp", "uvp", "statt", "barre", "tachado", "nonsale", "oldprice", "wasprice"}

var struckQualifiers = []string{"list", "regular", "original", "full", "before", "previous", "prev", "initial", "retail",
	"reference", "high", "base", "strike", "crossed", "normal", "standard"}

// otherProductWords are class and id words of blocks that show other products than the
// page's own: related, recommended, recently viewed, bundles and carousels of them.
var otherProductWords = []string{"related", "recommend", "recommended", "recommendation", "recommendations", "similar",
	"recent", "recently", "viewed", "upsell", "upsells", "crosssell", "cross", "also", "suggest", "suggested", "suggestions",
	"accessories", "bundle", "frequently", "sponsored", "carousel", "swiper", "slick", "reco", "recs",
	"relacionados", "aehnliche", "ähnliche", "similaires", "correlati", "podobne", "alternatives", "crosssells", "upselling"}

// sliderWords are class and id words of a slider: other products' tiles scroll in one,
// but so do a product's own pictures, with its price on them, so it is a feature of its
// own. The carousel libraries' names (otherProductWords) hold other products' tiles.
var sliderWords = []string{"slider"}

// chromeWords are class and id words of the page's frame: header, menus, footer,
// breadcrumbs.
// "header" and "footer" count only near the page's root (see element.readBlock): a
// product's own block may be a <header class="product-header">.
var chromeWords = []string{"masthead", "topbar", "navbar", "nav", "navigation", "menu", "megamenu", "breadcrumb",
	"breadcrumbs", "sidebar", "newsletter", "cookie", "cookies", "announcement"}

var frameWords = []string{"header", "footer"}

// cartWords are class and id words of the shopper's cart and checkout.
var cartWords = []string{"cart", "minicart", "basket", "checkout", "warenkorb", "panier", "carrito", "carrello", "koszyk",
	"winkelwagen", "kosik", "sepet"}

// hiddenWords are class and id words of content not shown as the page opens: dialogs,
// templates, screen-reader text.
// Screen-reader text ("sr-only", "screen-reader-text") is not among them: it repeats what
// the page shows, often the price itself.
var hiddenWords = []string{"modal", "popup", "dialog", "tooltip", "hidden", "hide", "template", "overlay", "invisible",
	"noscript"}

// otherPriceWords are class and id words of prices of another kind than the one to pay:
// per unit, per month, shipping, savings, before tax.
var otherPriceWords = []string{"unit", "per", "instal", "installment", "installments", "instalment", "month", "monthly",
	"shipping", "delivery", "versand", "livraison", "envio", "save", "saving", "savings", "discount", "tax", "vat",
	"excl", "netto", "deposit", "points", "reward", "financing", "finance", "klarna", "afterpay", "subtotal"}

// emphasisWords are class and id words of the price a page shows as the one to pay.
var emphasisWords = []string{"sale", "special", "final", "now", "current", "actual", "our", "main", "primary", "big",
	"large", "lg", "xl", "xxl", "promo", "deal", "offer", "selling", "new", "highlight", "accent", "red", "discounted",
	"reduced", "pdp", "product", "detail", "details"}

// productWords are class and id words of the product's own block on its page.
var productWords = []string{"product", "pdp", "detail", "details", "item", "main", "buybox", "summary", "info", "purchase"}

// otherPriceTexts are words in a price's text that make it another kind of price:
// savings, per-unit and per-month amounts, shipping, prices before tax.
var otherPriceTexts = phrases.New([]string{"save", "you save", "saving", "off", "per ", "/mo", "/month", " month", "monthly", "x ",
	"/kg", "/ kg", "/100", "/ 100", "/l", "/ l", "/m", "/ml", "/st", "/pc", "shipping", "delivery", "versand", "livraison",
	"envío", "spedizione", "excl", "ex vat", "ex. vat", "netto", "zzgl", "hors taxe", " ht", "sin iva", "senza iva",
	"bez dph", "sparen", "ersparnis", "économisez", "ahorra", "risparmi", "points", "deposit", "%"})

// struckTexts are words in a price's text that make it a former price: "was", "instead
// of", "list price", and screen-reader text such as "Original price was: 250,00 €".
var struckTexts = phrases.New([]string{"was ", "was:", "original price", "regular price", "list price", "compare at", "statt", "uvp",
	"rrp", "msrp", "vorher", "avant", "antes", "prima", "before", "instead of", "zamiast", "bylo", "было"})

// fromTexts begin a "from" price, the lowest of a range.
var fromTexts = []string{"from", "ab ", "à partir", "a partir", "desde", "da ", "od ", "vanaf", "fra ", "från", "от "}

// outWords and inWords are stock statements: sold out, and available to buy, as stores
// write them on stock lines and on the buy button in place of "Add to cart", language by
// language. A pre-order is available to buy. Sold-out wording is looked for first, so an
// in-stock word inside a sold-out phrase ("nicht verfügbar") does not count.
var outWords = phrases.New([]string{
	// English
	"out of stock", "out-of-stock", "sold out", "currently unavailable", "temporarily unavailable", "not available",
	"unavailable", "no longer available", "not in stock", "notify me", "email me when", "notify when available",
	"join the waitlist", "join waitlist", "coming soon", "discontinued", "temporarily out", "back soon",
	// German
	"nicht verfügbar", "nicht lieferbar", "ausverkauft", "nicht auf lager", "nicht vorrätig", "vergriffen",
	"benachrichtigen", "nicht mehr erhältlich",
	// French
	"épuisé", "rupture de stock", "en rupture", "indisponible", "m'alerter", "me prévenir", "prévenez-moi",
	"non disponible", "plus disponible",
	// Italian
	"non disponibile", "esaurito", "avvisami", "non più disponibile", "terminato",
	// Spanish
	"agotado", "sin stock", "sin existencias", "fuera de stock", "no disponible", "avísame", "avisarme",
	// Portuguese
	"esgotado", "indisponível", "sem estoque", "fora de estoque", "sem stock", "avise-me", "avise me",
	// Dutch
	"uitverkocht", "niet op voorraad", "niet leverbaar", "niet beschikbaar", "niet meer leverbaar",
	// Polish
	"niedostęp", "brak w magazynie", "brak towaru", "wyprzedany", "wyprzedane", "powiadom mnie",
	// Czech, Slovak, Hungarian
	"nedostupné", "vyprodáno", "není skladem", "nie je skladom", "vypredané", "hlídat dostupnost", "nincs készleten",
	"elfogyott",
	// Romanian
	"stoc epuizat", "epuizat", "indisponibil", "nu este în stoc", "nu este in stoc", "anunță-mă", "anunta-ma",
	// Russian, Ukrainian
	"нет в наличии", "немає в наявності", "сообщить о поступлении", "распродано",
	// Swedish, Danish, Norwegian, Finnish
	"slutsåld", "slut i lager", "ej i lager", "inte i lager", "tillfälligt slut", "ikke på lager", "udsolgt", "utsolgt",
	"midlertidig udsolgt", "loppu", "ei varastossa",
	// Turkish, Greek
	"tükendi", "stokta yok", "gelince haber ver", "εξαντλήθηκε", "μη διαθέσιμο", "εκτός αποθέματος",
	// Japanese
	"在庫切れ", "売り切れ", "品切れ", "在庫なし", "入荷待ち", "販売終了",
	// Chinese
	"缺貨", "缺货", "售完", "售罄", "無庫存", "无货", "到货通知", "貨到通知", "補貨中",
	// Korean
	"품절", "재고 없음", "재고없음", "재입고 알림", "구매불가",
	// Arabic, Hebrew
	"غير متوفر", "نفذت الكمية", "نفدت الكمية", "غير متاح", "نفذ من المخزون", "נגמר", "אזל מהמלאי",
	// Vietnamese, Thai, Indonesian
	"hết hàng", "สินค้าหมด", "stok habis", "tidak tersedia",
})

var inWords = phrases.New([]string{
	// English
	"in stock", "available", "ready to ship", "ships today", "pre-order", "preorder", "pre order",
	// German
	"auf lager", "lieferbar", "sofort verfügbar", "verfügbar", "vorrätig", "vorbestellen", "vorbestellbar",
	// French, Spanish, Italian, Portuguese
	"en stock", "disponible", "précommande", "pré-commande", "en existencia", "preventa", "disponibile", "in magazzino",
	"disponibilità immediata", "preordina", "em stock", "em estoque", "disponível", "pré-venda",
	// Dutch, Polish, Czech, Slovak, Hungarian
	"op voorraad", "leverbaar", "dostępny", "dostępne", "na stanie", "w magazynie", "przedsprzedaż", "skladem",
	"na sklade", "předobjednávka", "raktáron", "készleten",
	// Romanian, Russian, Ukrainian
	"în stoc", "in stoc", "disponibil", "в наличии", "є в наявності",
	// Swedish, Danish, Norwegian, Finnish
	"i lager", "finns i lager", "på lager", "varastossa",
	// Turkish, Greek, the Balkans and the Baltics
	"stokta", "σε απόθεμα", "διαθέσιμο", "na zalogi", "dobavljivo", "na stanju", "dostupno", "sandėlyje", "noliktavā",
	"laos",
	// Japanese, Chinese, Korean
	"在庫あり", "予約受付中", "即納", "有庫存", "有货", "現貨", "现货", "預購", "预售", "재고", "구매가능",
	// Arabic, Hebrew
	"متوفر", "متاح", "במלאי",
	// Vietnamese, Thai, Indonesian
	"còn hàng", "มีสินค้า", "stok tersedia", "tersedia",
})

// stockClassWords mark a stock line's element in its id or class.
var stockClassWords = []string{"availability", "stock", "lager", "dispon", "inventory", "avail"}

// stockLabels start a labelled stock line ("Availability: In stock").
var stockLabels = []string{"availability", "in stock", "stock", "verfügbarkeit", "lieferstatus", "lagerstatus", "disponibilité",
	"disponibilidad", "disponibilità", "disponibilidade", "dostępność", "dostupnost", "dostupnosť", "razpoložljivost",
	"raspoloživost", "elérhetőség", "наличие", "наявність", "beschikbaarheid", "voorraad", "saatavuus", "stok durumu", "在庫",
	"disponibilitate", "tillgänglighet", "διαθεσιμότητα", "库存", "庫存", "التوفر"}

// titleClassWords mark the element of a product's name in its id or class.
var titleClassWords = []string{"product-title", "product_title", "producttitle", "product-name", "product_name", "productname",
	"product__title", "product__name", "product-single__title", "pdp-title", "pdp__title", "item-title", "itemtitle",
	"item-name", "product-heading", "productheading"}

// bannerWords are words of menus, banners and calls to action that are not a product's
// name.
var bannerWords = []string{"shop by", "sign up", "sign in", "log in", "login", "register", "subscribe", "newsletter",
	"menu", "department", "categories", "my account", "your cart", "shopping cart", "cart", "checkout", "cookie", "welcome",
	"free shipping", "search", "wishlist", "customer service", "help", "contact us", "home", "adding to", "added to",
	"anmelden", "warenkorb", "connexion", "panier", "iniciar sesión", "carrito", "accedi", "carrello", "zaloguj", "koszyk"}

// tokens splits class, id or similar attributes into lower-case words at every
// character that is not a letter or digit and where a lower-case letter meets an upper
// case one ("oldPrice" is "old", "price"). The words of all the attributes come in one
// list, in order. A page has dozens of distinct classes, some with dozens of words, so
// the words are counted first and the list is made once; an ASCII attribute is
// lower-cased whole and its words are cut from that copy.
func tokens(attrs ...string) []string {
	n := 0
	for _, s := range attrs {
		tokenBounds(s, func(int, int) { n++ })
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for _, s := range attrs {
		if isASCII(s) {
			lower := strings.ToLower(s)
			tokenBounds(s, func(start, end int) { out = append(out, lower[start:end]) })
			continue
		}
		tokenBounds(s, func(start, end int) { out = append(out, strings.ToLower(s[start:end])) })
	}
	return out
}

// tokenBounds calls word with where each word of s starts and ends, as tokens splits it.
func tokenBounds(s string, word func(start, end int)) {
	start := -1
	var prev rune
	for i, r := range s {
		switch {
		case !isLetterOrDigit(r):
			if start >= 0 {
				word(start, i)
				start = -1
			}
		case start < 0:
			start = i
		case isUpper(r) && isLower(prev):
			word(start, i)
			start = i
		}
		prev = r
	}
	if start >= 0 {
		word(start, len(s))
	}
}

// priceSuffixes are what a class word may be joined with when it describes a price
// ("oldprice", "pricewas").
var priceSuffixes = []string{"price", "prices", "preis", "prix", "precio", "prezzo", "amount", "value"}

// classVocabulary names one of the vocabularies of class and id words above, as a bit.
type classVocabulary uint16

const (
	struckVocabulary classVocabulary = 1 << iota
	struckQualifierVocabulary
	otherProductVocabulary
	sliderVocabulary
	chromeVocabulary
	frameVocabulary
	cartVocabulary
	hiddenVocabulary
	productVocabulary
	emphasisVocabulary
	otherPriceVocabulary
	priceClassVocabulary
)

// classVocabularies maps each class and id word to the vocabularies that hold it, so that
// a block's words are each looked up once instead of compared with every vocabulary.
var classVocabularies = indexVocabularies(map[classVocabulary][]string{
	struckVocabulary:          struckWords,
	struckQualifierVocabulary: struckQualifiers,
	otherProductVocabulary:    otherProductWords,
	sliderVocabulary:          sliderWords,
	chromeVocabulary:          chromeWords,
	frameVocabulary:           frameWords,
	cartVocabulary:            cartWords,
	hiddenVocabulary:          hiddenWords,
	productVocabulary:         productWords,
	emphasisVocabulary:        emphasisWords,
	otherPriceVocabulary:      otherPriceWords,
	priceClassVocabulary:      priceClassWords,
})

func indexVocabularies(vocabularies map[classVocabulary][]string) map[string]classVocabulary {
	index := map[string]classVocabulary{}
	for v, words := range vocabularies {
		for _, w := range words {
			index[w] |= v
		}
	}
	return index
}

// vocabularyHits returns the vocabularies whose words toks hold, alone or joined to a
// price word ("oldprice", "priceold"). A word after a negation says the block is not that
// kind: a "no-slider" layout is not a carousel. A struck qualifier counts only qualifying
// a price word: joined ("listprice"), as the word before it ("list", "price") or, for the
// qualifiers of trailingQualifiers, as the word after it ("price-standard" beside
// "price-sales").
func vocabularyHits(toks []string) classVocabulary {
	var hits classVocabulary
	for i, t := range toks {
		alone := classVocabularies[t]
		var joined classVocabulary
		for _, p := range priceSuffixes {
			if len(t) <= len(p) {
				continue
			}
			if strings.HasPrefix(t, p) {
				joined |= classVocabularies[t[len(p):]]
			}
			if strings.HasSuffix(t, p) {
				joined |= classVocabularies[t[:len(t)-len(p)]]
			}
		}
		hits |= joined & struckQualifierVocabulary
		if alone&struckQualifierVocabulary != 0 && i+1 < len(toks) && isPriceSuffix(toks[i+1]) ||
			i > 0 && isPriceSuffix(toks[i-1]) && slices.Contains(trailingQualifiers, t) {
			hits |= struckQualifierVocabulary
		}
		if !negated(toks, i) {
			hits |= (alone | joined) &^ struckQualifierVocabulary
		}
	}
	return hits
}

// negations are the class words that deny the word after them ("no-slider",
// "without-sidebar").
var negations = []string{"no", "not", "non", "without"}

// negated reports whether the class word toks[i] follows a negation.
func negated(toks []string, i int) bool {
	return i > 0 && slices.Contains(negations, toks[i-1])
}

// trailingQualifiers are the qualifiers that make a former price when written after the
// price word too ("price-standard", "price-regular"): those that name nothing else there
// ("price-list" is a list of prices).
var trailingQualifiers = []string{"regular", "original", "before", "previous", "prev", "initial", "retail",
	"standard", "strike", "crossed"}

func isPriceSuffix(s string) bool {
	for _, p := range priceSuffixes {
		if s == p {
			return true
		}
	}
	return false
}

// words splits a text into lower-case words of letters and digits, for comparing titles.
// An ASCII text is lower-cased whole, once, so that its words need no copies of their own:
// lower-casing ASCII keeps every byte in place and every letter a letter. Other texts are
// lower-cased word by word, as they always were.
func words(s string) []string {
	if isASCII(s) {
		s = strings.ToLower(s)
	}
	var out []string
	start := -1
	for i, r := range s {
		if isLetterOrDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(s[start:]))
	}
	return out
}

// isLetterOrDigit, isUpper and isLower are unicode's IsLetter or IsDigit, IsUpper and
// IsLower, with ASCII, which most class names and titles are, compared in place.
func isLetterOrDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r)
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// compactWords joins the words of a text (as words splits it) into its compact form: the
// text in lower case with everything but letters and digits dropped, and "and" written as
// "&" dropped too: "Barnes & Noble" and "barnesandnoble" compact alike.
func compactWords(ws []string) string {
	var b strings.Builder
	for _, w := range ws {
		if w != "and" {
			b.WriteString(w)
		}
	}
	return b.String()
}

// truncate cuts s to at most n bytes at a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// PriceClassWords are the words that mark a price's element in its id or class, in the
// languages stores write their markup in; the html adapter reads listing prices by them.
func PriceClassWords() []string { return slices.Clone(priceClassWords) }
