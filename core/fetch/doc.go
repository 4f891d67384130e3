// Package fetch is the crawl engine's HTTP client: it fetches one URL at a time the way a
// well-behaved crawler should, and refuses to be pointed at anything but the public web.
//
// One Fetcher serves the whole process (politeness and the cache live in it):
//
//	f, err := fetch.New(fetch.Options{UserAgent: "StockroomBot/1.0 (+https://example.com/bot)"})
//	resp, err := f.Fetch(ctx, &fetch.Request{URL: "https://shop.example/products/shoe"})
//
// Fetch does, in order: the address guard's early check on the URL; robots.txt (fetched
// once per origin and cached); a politeness slot (per-host concurrency, an adaptive pace
// between Crawl-delay and its bounds, Retry-After pauses); the request, with retries and exponential backoff on 429, 5xx and
// network errors; redirects, each hop checked like the first (and a site's permanent move
// to https or to or from www. remembered, its later URLs asked for there); decompression
// (gzip, deflate, br) under a size limit; bot-wall recognition; conversion of text to
// UTF-8. The dialer checks every address again at connect time, so DNS cannot route
// around the guard.
//
// What comes back is either a *Response — any status that is information, 404 included —
// or an error that wraps one of the sentinels or types in errors.go: *BlockedAddressError
// (ErrForbiddenAddress), *RobotsError (ErrDisallowedByRobots), *BotWallError
// (ErrAutomatedAccessNotPermitted), *StatusError, *NetworkError, ErrTooManyRedirects,
// ErrBodyTooLarge, ErrTimeout, or the caller's context error. IsTransient says which are
// worth trying again later.
//
// A job that wants to know what it cost attaches a Meter to its context (WithMeter): it
// counts the job's requests by kind, its fetches waiting for a host, and the host's pace.
//
// README.md beside this file explains the politeness model, the address policy and the
// transient/permanent split, and why each is so.
package fetch
