package amazon

import (
	"regexp"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// marketplaceCountries are the countries of Amazon's marketplaces by the ids its page
// metrics script names them with (ue_mid), as Amazon's Selling Partner API documents
// them. A marketplace sells in its country's currency.
var marketplaceCountries = map[string]string{
	"ATVPDKIKX0DER":  "US",
	"A2EUQ1WTGCTBG2": "CA",
	"A1AM78C64UM0Y8": "MX",
	"A2Q3Y263D00KWC": "BR",
	"A1F83G8C2ARO7P": "GB",
	"A28R8C7NBKEWEA": "IE",
	"A1PA6795UKMFR9": "DE",
	"A13V1IB3VIYZZH": "FR",
	"APJ6JRA9NG5V4":  "IT",
	"A1RKKUPIHCS9HS": "ES",
	"A1805IZSGTT6HS": "NL",
	"AMEN7PMS3EDWL":  "BE",
	"A2NODRKZP88ZB9": "SE",
	"A1C3SOZRARQ6R3": "PL",
	"A33AVAJ2PDY3EV": "TR",
	"A2VIGQ35RCS4UG": "AE",
	"A17E79C6D8DWNP": "SA",
	"ARBP9OOSHTCHU":  "EG",
	"A21TJRUUN4KGV":  "IN",
	"A1VC38T7YXB528": "JP",
	"A19VAU5U5O7RUS": "SG",
	"A39IBJ37TRP1C6": "AU",
}

// marketplaceID finds the ue_mid assignment of the page metrics script.
var marketplaceID = regexp.MustCompile(`ue_mid\s*=\s*['"]([A-Z0-9]{8,16})['"]`)

// marketplaceCurrency is the currency the page's marketplace sells in: the one its
// metrics script names, else the one of the page's locale (its domain's country, its
// language tags).
func marketplaceCurrency(page *sdk.Doc, pageURL string) string {
	if page.Contains("ue_mid") {
		script := page.HTML().TextOf("//script[contains(., 'ue_mid')]")
		if m := marketplaceID.FindStringSubmatch(script); m != nil {
			if country, ok := marketplaceCountries[m[1]]; ok {
				return sdk.Locale{Territory: country}.Currency()
			}
		}
	}
	return sdk.PageLocale(page, pageURL).Currency()
}
