package demostore

import (
	"net/http"
	"strconv"
	"strings"
)

// RedirectPrefix is the path under which every store answers with a redirect to a
// product's page, as stores do for tracked, shortened or renamed links:
//
//	/go/{handle}                  301 to this store's page of the product
//	/go/{handle}?status=302       the same with 302 (or 303, 307, 308)
//	/go/{handle}?to=PREFIX        to PREFIX + handle: another store's page of it
//	                              ("http://127.0.0.2:8090/products/")
//
// The handle need not be in the catalogue: its page then answers 404.
const RedirectPrefix = "/go/"

// redirect answers a request under RedirectPrefix.
func (s *Store) redirect(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimPrefix(r.URL.Path, RedirectPrefix)
	if handle == "" || strings.Contains(handle, "/") {
		s.notFound(w, r)
		return
	}
	q := r.URL.Query()
	status := http.StatusMovedPermanently
	if v := q.Get("status"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 301 || n > 308 || n == 304 || n == 305 || n == 306 {
			http.Error(w, "status must be 301, 302, 303, 307 or 308", http.StatusBadRequest)
			return
		}
		status = n
	}
	target := base(r) + s.productPath(handle)
	if to := q.Get("to"); to != "" {
		target = to + handle
	}
	http.Redirect(w, r, target, status)
}

// productLink is where listing pages link the product of handle: its page, or the link
// Faults.ProductLinks names for it.
func (s *Store) productLink(r *http.Request, handle string) string {
	if link := s.opts.Faults.ProductLinks; link != "" {
		return base(r) + strings.ReplaceAll(link, "{handle}", handle)
	}
	return base(r) + s.productPath(handle)
}
