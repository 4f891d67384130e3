package fetch

import (
	"bytes"
	"net/http"
	"strings"
)

// A bot wall is a protection service answering in the site's place: a JavaScript challenge,
// a captcha or a block page. It is not content, and retrying does not get past it.
//
// Markers come in two strengths. On a blocking status (403, 405, 429, 503, and 202, which
// AWS WAF challenges use) a service's ordinary fingerprints are enough. On any other status
// (a 200 challenge page) only markers that appear on challenge pages alone count, because
// protected sites embed the same services' scripts in every normal page.

// wallMarker is one way to recognise one service. Header and Body both have to match when
// both are set; Body matches when every string in it occurs (case-insensitively).
type wallMarker struct {
	Service string
	// AnyStatus lets the marker fire on every status, 200 included. Leave it off unless
	// the marker never appears on a normal page.
	AnyStatus bool
	// Status, when set, restricts the marker to that status.
	Status int
	// Header is a header name; HeaderValue, when set, must occur in its value
	// (case-insensitively), else the header's presence suffices.
	Header      string
	HeaderValue string
	// Body lists texts that must all occur in the body's start, lower-cased. The most
	// distinctive comes first: every response is scanned, and a text that fails at once
	// ("challenges.cloudflare.com", not "<title>", which every page opens with) spares the
	// others.
	Body []string
}

var wallMarkers = []wallMarker{
	// Cloudflare: the managed challenge sets cf-mitigated; the interstitial ("Just a
	// moment...") carries _cf_chl_opt; block pages say "Attention Required!" or error 1020.
	{Service: "Cloudflare", AnyStatus: true, Header: "Cf-Mitigated", HeaderValue: "challenge"},
	{Service: "Cloudflare", AnyStatus: true, Body: []string{"_cf_chl_opt"}},
	{Service: "Cloudflare", AnyStatus: true, Body: []string{"challenges.cloudflare.com", "<title>just a moment...</title>"}},
	{Service: "Cloudflare", Body: []string{"cf-chl-"}},
	{Service: "Cloudflare", Body: []string{"attention required! | cloudflare"}},
	{Service: "Cloudflare", Header: "Server", HeaderValue: "cloudflare", Body: []string{"sorry, you have been blocked"}},
	{Service: "Cloudflare", Header: "Server", HeaderValue: "cloudflare", Body: []string{"error code: 1020"}},

	// Akamai: "Access Denied ... Reference #18.xxxx" from AkamaiGHost or edgesuite.
	{Service: "Akamai", Body: []string{"reference #", "access denied"}},
	{Service: "Akamai", Body: []string{"errors.edgesuite.net"}},
	{Service: "Akamai", Header: "Server", HeaderValue: "akamaighost", Body: []string{"access denied"}},

	// PerimeterX / HUMAN: the block page's captcha container and app id.
	{Service: "PerimeterX", Body: []string{"px-captcha"}},
	{Service: "PerimeterX", Body: []string{"_pxappid"}},
	{Service: "PerimeterX", AnyStatus: true, Body: []string{"px-captcha", "press & hold"}},

	// DataDome: its captcha is served from captcha-delivery.com; blocks carry X-DataDome.
	{Service: "DataDome", AnyStatus: true, Body: []string{"captcha-delivery.com"}},
	{Service: "DataDome", Header: "X-Datadome"},

	// Imperva / Incapsula: normal pages load /_Incapsula_Resource too, so on a 200 only the
	// incident page counts.
	{Service: "Imperva", Body: []string{"_incapsula_resource"}},
	{Service: "Imperva", AnyStatus: true, Body: []string{"incapsula incident id"}},

	// Sucuri firewall.
	{Service: "Sucuri", Body: []string{"sucuri website firewall"}},
	{Service: "Sucuri", Header: "X-Sucuri-Block"},
	{Service: "Sucuri", AnyStatus: true, Body: []string{"sucuri website firewall - access denied"}},

	// AWS WAF: challenge (202) and captcha (405) actions say so in a header; the pages
	// load the challenge through AwsWafIntegration and gokuProps.
	{Service: "AWS WAF", AnyStatus: true, Header: "X-Amzn-Waf-Action"},
	{Service: "AWS WAF", AnyStatus: true, Body: []string{"awswafintegration"}},
	{Service: "AWS WAF", AnyStatus: true, Body: []string{"window.gokuprops"}},

	// Kasada answers 429 with its own headers.
	{Service: "Kasada", Header: "X-Kpsdk-Ct"},

	// Shopify: the bot-protection checkpoint and the storefront's HTML rate-limit page. A
	// JSON 429 from the storefront API is not a wall; it is retried.
	{Service: "Shopify", Body: []string{"/checkpoint", "shopify"}},
	{Service: "Shopify", AnyStatus: true, Body: []string{"checkpoint", "captcha", "shopify"}},
	{Service: "Shopify", Status: http.StatusTooManyRequests, Body: []string{"too many requests", "shopify", "<html"}},

	// Generic walls: a captcha or an "are you human" page on a blocking status.
	{Service: "captcha", Body: []string{"g-recaptcha"}},
	{Service: "captcha", Body: []string{"h-captcha"}},
	{Service: "captcha", Body: []string{"cf-turnstile"}},
	{Service: "captcha", Body: []string{"captcha"}},
	{Service: "captcha", Body: []string{"are you a robot"}},
	{Service: "captcha", Body: []string{"verify you are human"}},
	{Service: "captcha", Body: []string{"unusual traffic"}},
}

// wallScanBytes is how much of a body the detector reads: challenge pages are small and
// put their markers early.
const wallScanBytes = 64 << 10

// blockingStatus reports whether status is one protection services block or challenge with.
func blockingStatus(status int) bool {
	switch status {
	case http.StatusAccepted, http.StatusForbidden, http.StatusMethodNotAllowed,
		http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	}
	return false
}

// DetectBotWall reports whether a response is a protection service's challenge or block
// page, and which service's. It is what Fetch uses; exported so that saved pages can be
// checked offline the same way.
func DetectBotWall(status int, header http.Header, body []byte) (service string, ok bool) {
	blocking := blockingStatus(status)
	if !blocking && (status < 200 || status > 299) {
		// A 404 or a 500 is information about the site, whatever its page says.
		return "", false
	}
	if len(body) > wallScanBytes {
		body = body[:wallScanBytes]
	}
	lower := asciiLower(body)
	for _, m := range wallMarkers {
		if !m.AnyStatus && !blocking {
			continue
		}
		if m.Status != 0 && m.Status != status {
			continue
		}
		if m.matches(header, lower) {
			return m.Service, true
		}
	}
	return "", false
}

// asciiLower returns a lower-cased copy of b, folding ASCII letters only: the markers are
// ASCII, and bytes.ToLower decodes every rune of a page that holds one non-ASCII character
// (a "›", a "©"), which made this scan 70 µs of a 13 KB page.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func (m *wallMarker) matches(header http.Header, lowerBody []byte) bool {
	if m.Header != "" {
		v, present := header[http.CanonicalHeaderKey(m.Header)]
		if !present {
			return false
		}
		if m.HeaderValue != "" && !strings.Contains(strings.ToLower(strings.Join(v, ",")), m.HeaderValue) {
			return false
		}
	}
	for _, s := range m.Body {
		if !bytes.Contains(lowerBody, []byte(s)) {
			return false
		}
	}
	return m.Header != "" || len(m.Body) > 0
}
