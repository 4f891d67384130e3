package sdk

import "testing"

func TestParseAmountReadsTheWorldsNumberFormats(t *testing.T) {
	for _, tc := range []struct {
		text, hint string
		want       float64
		currency   string
	}{
		// Decimal comma and point, and what groups thousands.
		{"1.234,56 €", "", 1234.56, "EUR"},
		{"1 234,56 €", "", 1234.56, "EUR"},
		{"1\u00a0234,56\u00a0€", "", 1234.56, "EUR"},
		{"1\u202f234,56 €", "", 1234.56, "EUR"},
		{"CHF 1'234.56", "", 1234.56, "CHF"},
		{"CHF 1’234.56", "", 1234.56, "CHF"},
		{"$1,234.56", "", 1234.56, "USD"},
		{"1,234.56", "", 1234.56, ""},
		{"1.234,56", "EUR", 1234.56, "EUR"},
		// No decimals, written as a dash.
		{"12,-", "", 12, ""},
		{"12,–", "", 12, ""},
		{"12,– €", "", 12, "EUR"},
		{"CHF 1'299.–", "", 1299, "CHF"},
		{"1 299:- kr", "SEK", 1299, "SEK"},
		{"kr 1.299,-", "NOK", 1299, "NOK"},
		// Currencies without decimals, and with three.
		{"₩30,000", "", 30000, "KRW"},
		{"30,000원", "", 30000, "KRW"},
		{"¥1,280", "", 1280, "JPY"},
		{"¥1,280", "CNY", 1280, "CNY"},
		{"1,280円", "", 1280, "JPY"},
		{"售價NT$2,320", "", 2320, "TWD"},
		{"特價 294 元", "TWD", 294, "TWD"},
		{"￥1,280", "", 1280, "JPY"},
		{"29.990 CLP", "", 29990, "CLP"},
		{"$29.990", "CLP", 29990, "CLP"},
		{"29.990", "CLP", 29990, "CLP"},
		{"12.500 KWD", "", 12.5, "KWD"},
		{"12.500", "KWD", 12.5, "KWD"},
		{"BHD 1,250.500", "", 1250.5, "BHD"},
		// Dollars of many countries.
		{"NT$2,320", "", 2320, "TWD"},
		{"R$ 99,90", "", 99.9, "BRL"},
		{"R$1.299,90", "", 1299.9, "BRL"},
		{"US $649.99", "", 649.99, "USD"},
		{"US$ 649.99", "CAD", 649.99, "USD"},
		{"$ 49.99", "CAD", 49.99, "CAD"},
		{"$49.99", "MXN", 49.99, "MXN"},
		{"$49.99", "EUR", 49.99, "USD"},
		{"CA$49.99", "", 49.99, "CAD"},
		{"A$ 49.95", "", 49.95, "AUD"},
		{"HK$1,099", "", 1099, "HKD"},
		{"S$ 12.90", "SGD", 12.9, "SGD"},
		{"12,90 $ CA", "", 12.9, "USD"}, // the "CA" after the sign is not read
		// Indian grouping and the rupee.
		{"₹1,23,456.00", "", 123456, "INR"},
		{"Rs. 1,23,456", "", 123456, "INR"},
		{"Rs 2,499", "PKR", 2499, "PKR"},
		// Symbols and codes on either side.
		{"£12.99", "", 12.99, "GBP"},
		{"12.99 GBP", "", 12.99, "GBP"},
		{"EUR12", "", 12, "EUR"},
		{"12EUR", "", 12, "EUR"},
		{"1 299,00 zł", "", 1299, "PLN"},
		{"1.299 Kč", "", 1299, "CZK"},
		{"12 500 Ft", "", 12500, "HUF"},
		{"1 299 ₽", "", 1299, "RUB"},
		{"1 299 руб.", "", 1299, "RUB"},
		{"₺1.299,90", "", 1299.9, "TRY"},
		{"1.299,90 TL", "TRY", 1299.9, "TRY"},
		{"S/ 59.90", "", 59.9, "PEN"},
		{"₫250.000", "", 250000, "VND"},
		{"฿1,290", "", 1290, "THB"},
		{"₱1,299.00", "", 1299, "PHP"},
		{"R 199,99", "ZAR", 199.99, "ZAR"},
		{"R 199,99", "", 199.99, ""},
		{"12 kr", "", 12, ""},
		{"€2,50/kg", "", 2.5, "EUR"},
		{"61,800 kg", "BRL", 61800, "BRL"},
		// Other scripts' digits.
		{"٣٤٥ ر.س.\u200f", "", 345, "SAR"},
		{"١٬٢٣٤٫٥٠ د.إ.\u200f", "", 1234.5, "AED"},
		{"۱۲۳", "IRR", 123, "IRR"},
		{"１,２８０円", "", 1280, "JPY"},
		// The amount beside a currency wins over numbers without one.
		{"2 x 5,00 €", "", 5, "EUR"},
		{"Save 20% – now €79.99", "", 79.99, "EUR"},
		{"Was $30, now $20", "", 30, "USD"},
		{"SKU 12345 – $5", "", 5, "USD"},
		{"2 x 5,00", "", 2, ""},
		{"12.99", "usd", 12.99, "USD"},
		{"12.99", "nonsense", 12.99, ""},
	} {
		v, cur, ok := ParseAmount(tc.text, tc.hint)
		if !ok || v != tc.want || cur != tc.currency {
			t.Errorf("ParseAmount(%q, %q) = %v, %q, %v; want %v, %q", tc.text, tc.hint, v, cur, ok, tc.want, tc.currency)
		}
	}
	for _, text := range []string{"", "free", "€", "Preis auf Anfrage"} {
		if v, cur, ok := ParseAmount(text, "EUR"); ok || v != 0 || cur != "" {
			t.Errorf("ParseAmount(%q) = %v, %q, %v; want no amount", text, v, cur, ok)
		}
	}
}

func TestParseMachinePriceReadsValuesAsWritten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1234.50", 1234.5, true},
		{"1234.500", 1234.5, true},
		{"29.990", 29.99, true},
		{"1.299", 1.299, true},
		{"1295", 1295, true},
		{"0", 0, true},
		{".5", 0.5, true},
		{"1e3", 1000, true},
		{" 12.5 ", 12.5, true},
		{"12,50", 12.5, true},
		{"12,5", 12.5, true},
		{"1,234", 1234, true},
		{"1,234.50", 1234.5, true},
		{"1.234,50", 1234.5, true},
		{"1,234,567", 1234567, true},
		{"1.234.567", 1234567, true},
		{"GBP 12.89", 12.89, true},
		{"US $649.99", 649.99, true},
		{"$24.99", 24.99, true},
		{"12.50 EUR", 12.5, true},
		{"Rs.12", 12, true},
		{"", 0, false},
		{"USD", 0, false},
		{"-5", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"0x1p3", 0, false},
		{"1_000", 0, false},
		{"12.99-15.99", 0, false},
		{"1.2.3", 0, false},
		{"1,23", 1.23, true},
		{"1,2345", 1.2345, true},
		{"1,23,456.00", 0, false},
		{"1 234.50", 0, false},
		{"1.234,567.89", 0, false},
		{"call for price", 0, false},
		{"12.", 12, true},
		{"1e400", 0, false},
	} {
		got, ok := ParseMachinePrice(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseMachinePrice(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func BenchmarkParseAmount(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if v, cur, _ := ParseAmount("1.299,00 €", ""); v != 1299 || cur != "EUR" {
			b.Fatal(v, cur)
		}
	}
}

func TestWritesCurrencyTellsAStatedCurrencyFromNone(t *testing.T) {
	for text, want := range map[string]bool{
		"199 kr": true, "$5": true, "12 EUR": true, "R$ 99,90": true, "1 299:- kr": true, "3,99 €/kg": true, "￥1,280": true,
		// Chinese, Japanese and Korean run the currency's word into the words around it.
		"最低價$99元起/包": true, "特價 294 元": true, "售價NT$2,320": true, "税込1,280円（税込）": true, "30,000원부터": true,
		"12,50": false, "(3592 Reviews)": false, "3D Ручки": false, "共 12 件": false, "61,800 kg": false, "3S. x Tertio": false, "R 99": false, "Save 20": false, "": false,
	} {
		if got := WritesCurrency(text); got != want {
			t.Errorf("WritesCurrency(%q) = %v, want %v", text, got, want)
		}
	}
}
