package sdk

import "testing"

func TestParsePrice(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"19.90", 19.90, true},
		{"19,90 €", 19.90, true},
		{"$1,299.00", 1299, true},
		{"1.299,00 €", 1299, true},
		{"1 299,00", 1299, true},
		{"1\u00a0299,00 zł", 1299, true},
		{"CHF 1'299.–", 1299, true},
		{"EUR 20", 20, true},
		{"1.299", 1299, true},
		{"1,299,000", 1299000, true},
		{"12.5", 12.5, true},
		{"Price: 87.11 incl. VAT 19.99", 87.11, true},
		{"0.99", 0.99, true},
		{"19.90 24.99", 19.90, true},
		{"12 500 Ft", 12500, true},
		{"2 x 5,00", 2, true},
		{"1'234.56", 1234.56, true},
		{"1 234,56", 1234.56, true},
		{"12,-", 12, true},
		{"12,–", 12, true},
		{"₩30,000", 30000, true},
		{"NT$2,320", 2320, true},
		{"¥1,280", 1280, true},
		{"R$ 99,90", 99.9, true},
		{"29.990 CLP", 29990, true},
		{"1,23,456.00", 123456, true},
		{"1,23,456", 123456, true},
		{"12.500 KWD", 12500, true}, // ParseAmount knows dinars have three decimals
		{"٣٤٥", 0, false},           // ParseAmount reads other scripts' digits
		{"free", 0, false},
		{"", 0, false},
	} {
		got, ok := ParsePrice(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParsePrice(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
