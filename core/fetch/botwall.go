package fetch

import (
	"encoding/binary"
	"net/http"
	"strings"
	"unsafe"
)

// A bot wall is a protection service answering in the site's place: a JavaScript challenge,
// a captcha or a block page. It is not content, and retrying does not get past it.
//
// Markers come in two strengths. On a blocking status (403, 405, 429, 503, and 202, which
// AWS WAF challenges use) a service's ordinary fingerprints are enough. On any other status
// (a 200 challenge page) only markers that appear on challenge pages alone count, because
// protected sites embed the same services' scripts in every normal page; and a 2xx JSON
// answer is judged by its headers alone.

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
	if !blocking && jsonish(bareMediaType(header.Get("Content-Type"))) {
		// A 2xx JSON answer is data (a storefront's products), never a challenge page, and
		// its text may say "captcha" or "checkpoint" all the same; its headers still count.
		body = nil
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

// asciiLower returns a lower-cased copy of b, folding ASCII letters only. The markers are
// ASCII, and bytes.ToLower would decode every rune of any page that holds a single
// non-ASCII character (a "›", a "©"), which made the scan slow. The copy is returned as a
// string for the markers' search; nothing else holds it, so nothing can change it.
func asciiLower(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	out := make([]byte, len(b))
	i := 0
	for ; i+8 <= len(b); i += 8 {
		// Fold eight bytes at a time: a loop over single bytes was a large part of the scan.
		x := binary.LittleEndian.Uint64(b[i:])
		binary.LittleEndian.PutUint64(out[i:], x|asciiUpper(x)>>2)
	}
	for ; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return unsafe.String(&out[0], len(out))
}

// asciiUpper has the high bit set in each byte of x that is an ASCII capital letter, and
// no other bit: shifted right by two, it is the bit that lower-cases them.
func asciiUpper(x uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	seven := x & low7                      // under 0x80: the sums below stay in their byte
	atLeastA := seven + 0x3f3f3f3f3f3f3f3f // 0x80 - 'A': high bit set from 'A' up
	pastZ := seven + 0x2525252525252525    // 0x80 - ('Z'+1): high bit set past 'Z'
	return atLeastA &^ pastZ &^ x & high   // &^ x: not a byte >= 0x80
}

// pageByteRank lists bytes from the most frequent in lower-cased web pages on (measured
// over the 73 pages of the product-extraction benchmark); a byte it does not list is
// rarer than all it does.
const pageByteRank = " teaionsr-cldp\".mubhg:f/0=1ky,w>x2<;v"

// containsMarker reports whether marker occurs in lowerBody. strings.Index looks for a
// needle from its first byte and stops at each occurrence of it; markers start with
// letters as common as "c", "i" and "s", and those stops were most of a page's scan. The
// search starts instead from the marker's rarest byte, and the bytes before it are then
// compared in place.
func containsMarker(lowerBody, marker string) bool {
	anchor, rank := 0, -1
	for i := 0; i < len(marker); i++ {
		r := strings.IndexByte(pageByteRank, marker[i])
		if r < 0 {
			r = len(pageByteRank)
		}
		if r > rank {
			anchor, rank = i, r
		}
	}
	head, tail := marker[:anchor], marker[anchor:]
	for from := anchor; from <= len(lowerBody); {
		i := strings.Index(lowerBody[from:], tail)
		if i < 0 {
			return false
		}
		at := from + i
		if lowerBody[at-anchor:at] == head {
			return true
		}
		from = at + 1
	}
	return false
}

func (m *wallMarker) matches(header http.Header, lowerBody string) bool {
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
		if !containsMarker(lowerBody, s) {
			return false
		}
	}
	return m.Header != "" || len(m.Body) > 0
}
