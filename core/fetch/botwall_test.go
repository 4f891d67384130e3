package fetch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestDetectBotWall(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		header  http.Header
		body    string
		service string // "" means not a wall
	}{
		// Cloudflare
		{"cloudflare managed challenge header", 403, hdr("cf-mitigated", "challenge"), "", "Cloudflare"},
		{"cloudflare challenge header on a 200", 200, hdr("Cf-Mitigated", "challenge"), "<html></html>", "Cloudflare"},
		{"cloudflare just a moment", 503, nil, `<html><head><title>Just a moment...</title></head><body><script src="https://challenges.cloudflare.com/x"></script>`, "Cloudflare"},
		{"cloudflare interstitial on a 200", 200, nil, `<script>window._cf_chl_opt={cvId:'3'}</script>`, "Cloudflare"},
		{"cloudflare cf-chl form", 403, nil, `<form id="challenge-form" action="/?__cf_chl_f_tk=abc" class="cf-chl-widget">`, "Cloudflare"},
		{"cloudflare attention required", 403, nil, `<title>Attention Required! | Cloudflare</title>`, "Cloudflare"},
		{"cloudflare 1020", 403, hdr("Server", "cloudflare"), `error code: 1020`, "Cloudflare"},
		// Akamai
		{"akamai access denied", 403, hdr("Server", "AkamaiGHost"), `<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>You don't have permission. Reference #18.2d351ab8.1700000000.5e5b4b</BODY></HTML>`, "Akamai"},
		{"akamai edgesuite", 403, nil, `<p>https://errors.edgesuite.net/18.abc</p>`, "Akamai"},
		// PerimeterX / HUMAN
		{"perimeterx captcha", 403, nil, `<div id="px-captcha"></div><script>window._pxAppId='PXabc';</script>`, "PerimeterX"},
		{"perimeterx press and hold on a 200", 200, nil, `<div id="px-captcha">Press &amp; Hold</div> Press & Hold to confirm`, "PerimeterX"},
		// DataDome
		{"datadome captcha", 403, nil, `<iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe>`, "DataDome"},
		{"datadome header", 403, hdr("X-DataDome", "protected"), `{"url":"https://geo.captcha-delivery.com/x"}`, "DataDome"},
		{"datadome captcha on a 200", 200, nil, `<script src="https://ct.captcha-delivery.com/c.js"></script>`, "DataDome"},
		// Imperva
		{"incapsula resource", 403, nil, `<iframe src="/_Incapsula_Resource?CWUDNSAI=9"></iframe>`, "Imperva"},
		{"incapsula incident", 200, nil, `Request unsuccessful. Incapsula incident ID: 123-456`, "Imperva"},
		// Sucuri
		{"sucuri block", 403, hdr("X-Sucuri-Block", "1"), `blocked`, "Sucuri"},
		{"sucuri page", 403, nil, `<title>Sucuri WebSite Firewall - Access Denied</title>`, "Sucuri"},
		// AWS WAF
		{"aws waf challenge", 202, hdr("x-amzn-waf-action", "challenge"), ``, "AWS WAF"},
		{"aws waf captcha", 405, nil, `<script src="https://x.token.awswaf.com/x/challenge.js"></script><script>window.gokuProps = {}; AwsWafIntegration.getToken()</script>`, "AWS WAF"},
		// Kasada
		{"kasada", 429, hdr("X-Kpsdk-Ct", "abc"), ``, "Kasada"},
		// Shopify
		{"shopify checkpoint", 403, nil, `<form action="/checkpoint" method="post"><script src="https://cdn.shopify.com/x.js">`, "Shopify"},
		{"shopify checkpoint captcha on a 200", 200, nil, `<h1>Checkpoint</h1><div class="g-recaptcha"></div> Shopify`, "Shopify"},
		{"shopify rate limit page", 429, nil, `<!DOCTYPE html><html><title>Too many requests</title><body>Shopify</body></html>`, "Shopify"},
		// Generic
		{"recaptcha wall", 403, nil, `<div class="g-recaptcha" data-sitekey="x"></div>`, "captcha"},
		{"hcaptcha wall", 429, nil, `<div class="h-captcha"></div>`, "captcha"},
		{"turnstile wall", 403, nil, `<div class="cf-turnstile"></div>`, "captcha"},
		{"are you a robot", 503, nil, `<h1>Are you a robot?</h1>`, "captcha"},
		{"unusual traffic", 429, nil, `We have detected unusual traffic from your network.`, "captcha"},

		// Not walls
		{"plain 403", 403, nil, `<h1>403 Forbidden</h1><hr>nginx`, ""},
		{"plain 503 maintenance", 503, hdr("Retry-After", "120"), `<h1>We'll be back soon</h1>`, ""},
		{"shopify json rate limit is retried, not a wall", 429, hdr("Content-Type", "application/json"), `{"errors":"Exceeded 2 calls per second for api client. Shopify"}`, ""},
		{"normal page with the cloudflare bot script", 200, hdr("Server", "cloudflare"), `<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script><h1>Blue shoes</h1>`, ""},
		{"normal page with incapsula script", 200, nil, `<script src="/_Incapsula_Resource?SWJIYLWA=719d"></script><h1>Shoes</h1>`, ""},
		{"normal page with datadome tags", 200, hdr("X-DataDome", "protected"), `<script src="https://js.datadome.co/tags.js"></script>`, ""},
		{"product page with a review captcha", 200, nil, `<form class="review"><div class="g-recaptcha"></div></form>`, ""},
		{"404 whatever it says", 404, nil, `<title>Just a moment...</title> _cf_chl_opt captcha`, ""},
		{"2xx json that mentions a checkpoint captcha is data", 200, hdr("Content-Type", "application/json; charset=utf-8"), `{"products":[{"body_html":"Checkpoint captcha kit for Shopify stores"}]}`, ""},
		{"cloudflare challenge header on a 2xx json", 200, hdr("Content-Type", "application/problem+json", "Cf-Mitigated", "challenge"), `{}`, "Cloudflare"},
		{"blocking json still read", 403, hdr("Content-Type", "application/json"), `{"url":"https://geo.captcha-delivery.com/captcha/"}`, "DataDome"},
		{"500 whatever it says", 500, hdr("cf-mitigated", "challenge"), `captcha`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			service, ok := DetectBotWall(c.status, c.header, []byte(c.body))
			if ok != (c.service != "") || service != c.service {
				t.Errorf("DetectBotWall = %q, %v; want %q", service, ok, c.service)
			}
		})
	}
}

// A wall is an error, reported once and never retried, even on statuses that are retried
// otherwise.
func TestFetchReportsBotWallsWithoutRetrying(t *testing.T) {
	cases := []struct {
		status  int
		header  http.Header
		body    string
		service string
	}{
		{403, hdr("cf-mitigated", "challenge"), "", "Cloudflare"},
		{503, nil, `<title>Just a moment...</title><script src="https://challenges.cloudflare.com/turnstile"></script>`, "Cloudflare"},
		{429, nil, `<div id="px-captcha"></div>`, "PerimeterX"},
		{200, nil, `Incapsula incident ID: 1`, "Imperva"},
	}
	for _, c := range cases {
		t.Run(c.service+"_"+http.StatusText(c.status), func(t *testing.T) {
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range c.header {
					w.Header()[k] = v
				}
				w.WriteHeader(c.status)
				_, _ = w.Write([]byte(c.body))
			})
			f := newFetcher(t, testOptions())
			_, err := get(context.Background(), f, s.URL+"/product")
			var wall *BotWallError
			if !errors.As(err, &wall) || !errors.Is(err, ErrAutomatedAccessNotPermitted) {
				t.Fatalf("Fetch = %v; want a *BotWallError", err)
			}
			if wall.Service != c.service || wall.Status != c.status {
				t.Errorf("wall = %+v; want service %q status %d", wall, c.service, c.status)
			}
			if IsTransient(err) {
				t.Errorf("a bot wall is reported as transient")
			}
			if n := s.count("/product"); n != 1 {
				t.Errorf("server saw %d requests; want 1 (walls are not retried)", n)
			}
			if f.Stats().BotWalls != 1 {
				t.Errorf("Stats().BotWalls = %d; want 1", f.Stats().BotWalls)
			}
		})
	}
}

// FuzzDetectBotWall checks that the detector never panics, is deterministic, and never
// calls a status that protection services do not use a wall.
func FuzzDetectBotWall(f *testing.F) {
	f.Add(403, "cf-mitigated", "challenge", "")
	f.Add(200, "Server", "cloudflare", "<title>Just a moment...</title>_cf_chl_opt")
	f.Add(429, "X-DataDome", "", "captcha-delivery.com")
	f.Add(404, "", "", "px-captcha")
	f.Add(503, "", "", strings.Repeat("a", 70<<10)+"captcha")
	f.Fuzz(func(t *testing.T, status int, name, value, body string) {
		h := http.Header{}
		if name != "" {
			h.Set(name, value)
		}
		service, ok := DetectBotWall(status, h, []byte(body))
		again, ok2 := DetectBotWall(status, h, []byte(body))
		if service != again || ok != ok2 {
			t.Fatalf("not deterministic: %q/%v then %q/%v", service, ok, again, ok2)
		}
		if ok && service == "" {
			t.Fatalf("a wall without a service")
		}
		if ok && !blockingStatus(status) && (status < 200 || status > 299) {
			t.Fatalf("status %d called a wall (%s)", status, service)
		}
	})
}

// BenchmarkDetectBotWall is the scan every fetched page goes through: a 13 KB category page
// with a few non-ASCII characters, as the demo store's and most stores' pages have.
func BenchmarkDetectBotWall(b *testing.B) {
	tile := `<li class="product-tile"><a href="/item/ridgeback-insulated-sneaker-1"><img src="/media/1.svg" alt="Ridgeback Insulated Sneaker">` +
		`<h3 class="product-tile__title">Ridgeback Insulated Sneaker</h3></a><div class="price"><s>$189.99</s> <span>$126.00</span></div></li>` + "\n"
	body := []byte(`<!DOCTYPE html><html><head><title>Sale – Corner Shop</title></head><body><ul>` +
		strings.Repeat(tile, 50) + `</ul><a class="next" href="?page=2">Next page »</a><footer>© Corner Shop</footer></body></html>`)
	header := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if service, ok := DetectBotWall(http.StatusOK, header, body); ok {
			b.Fatalf("a plain page called a %s wall", service)
		}
	}
}

// FuzzAsciiLower holds the eight-bytes-at-a-time folding to the byte loop's answer.
func FuzzAsciiLower(f *testing.F) {
	f.Add([]byte("<TITLE>Just A Moment…</TITLE> @[`{ AZaz\x80\xc1\xdaZ"))
	f.Fuzz(func(t *testing.T, b []byte) {
		want := make([]byte, len(b))
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			want[i] = c
		}
		if got := asciiLower(b); got != string(want) {
			t.Fatalf("asciiLower(%q) = %q, want %q", b, got, want)
		}
	})
}

// FuzzContainsMarker holds the search from a marker's rarest byte to strings.Contains.
func FuzzContainsMarker(f *testing.F) {
	f.Add("window.gokuprops = {}", "window.gokuprops")
	f.Add("checkpoint checkpoin", "checkpoint")
	f.Add("kkkk", "kk")
	f.Add("ab", "")
	f.Fuzz(func(t *testing.T, body, marker string) {
		if got, want := containsMarker(body, marker), strings.Contains(body, marker); got != want {
			t.Fatalf("containsMarker(%q, %q) = %v, want %v", body, marker, got, want)
		}
	})
}
