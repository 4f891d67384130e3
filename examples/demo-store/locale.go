package demostore

import (
	"strconv"
	"strings"
)

// priceStyle is how a shop's locale writes an amount: its decimal and grouping marks,
// and on which side of the amount the currency symbol stands.
type priceStyle struct {
	decimal, group string
	symbolAfter    bool // "12,50 €" rather than "€12.50"
}

var (
	// germanPrices is de_DE's "1.234,56 €".
	germanPrices = priceStyle{decimal: ",", group: ".", symbolAfter: true}
	// britishPrices is en_GB's "£1,234.56".
	britishPrices = priceStyle{decimal: ".", group: ",", symbolAfter: false}
)

// number writes m with two decimals and grouped thousands: 123456 is "1.234,56" in
// German.
func (st priceStyle) number(m Money) string {
	whole := strconv.FormatInt(int64(m/100), 10)
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(st.group)
		}
		b.WriteRune(d)
	}
	cents := int64(m % 100)
	b.WriteString(st.decimal)
	b.WriteByte(byte('0' + cents/10))
	b.WriteByte(byte('0' + cents%10))
	return b.String()
}

// text writes m in currency as a shopper reads it: "1.234,56 €" (a no-break space
// before the symbol), "£1,234.56".
func (st priceStyle) text(m Money, currency string) string {
	if st.symbolAfter {
		return st.number(m) + "\u00a0" + currencySymbol(currency)
	}
	return currencySymbol(currency) + st.number(m)
}

// currencySymbol is the symbol shops write for an ISO 4217 code, or the code itself.
func currencySymbol(code string) string {
	switch code {
	case "EUR":
		return "€"
	case "GBP":
		return "£"
	case "USD":
		return "$"
	}
	return code
}
