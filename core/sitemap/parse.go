package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html/charset"
)

// Entry is one page a sitemap names.
type Entry struct {
	// URL is the page's address (<loc>), absolute.
	URL string
	// LastMod is <lastmod> as written; empty when absent.
	LastMod string
	// Images are the addresses of the pictures the sitemap gives for the page
	// (image:image/image:loc).
	Images []string
	// Alternates are the page's versions for other languages or regions
	// (xhtml:link rel="alternate" hreflang="...").
	Alternates []Alternate
	// File is the sitemap file that named the page.
	File string
}

// Alternate is a version of a page for a language or region.
type Alternate struct {
	// Lang is the hreflang value as written ("de", "en-GB", "x-default").
	Lang string
	URL  string
}

// Limits bound what a Reader reads. The zero value of each field means its default.
type Limits struct {
	// URLsPerFile bounds the entries read from one file; the rest of the file is left
	// unread. Zero means 50,000, the protocol's limit.
	URLsPerFile int
	// BytesPerFile bounds a file's size once decompressed; the rest of the file is left
	// unread. Zero means 50 MB (52,428,800 bytes), the protocol's limit. The fetcher's
	// own limit on a body applies first, to the body as sent.
	BytesPerFile int64
	// Depth is how many levels of indexes are followed below a first file: the sitemaps
	// an index names are one level down. Zero means 3.
	Depth int
	// Files bounds the files fetched by one read. Zero means 1,000.
	Files int
	// URLs bounds the entries visited by one read. Zero means 500,000.
	URLs int
}

func (l Limits) withDefaults() Limits {
	if l.URLsPerFile <= 0 {
		l.URLsPerFile = 50_000
	}
	if l.BytesPerFile <= 0 {
		l.BytesPerFile = 50 * 1024 * 1024
	}
	if l.Depth <= 0 {
		l.Depth = 3
	}
	if l.Files <= 0 {
		l.Files = 1_000
	}
	if l.URLs <= 0 {
		l.URLs = 500_000
	}
	return l
}

// Why a file was not read whole.
var (
	// ErrNotSitemap is a file that is neither a sitemap nor a sitemap index (an HTML
	// page served at a sitemap's address, say).
	ErrNotSitemap = errors.New("not a sitemap")
	// ErrFileTooLarge is a file larger than Limits.BytesPerFile once decompressed.
	ErrFileTooLarge = errors.New("larger than the limit per file")
	// ErrTooManyURLs is a file naming more than Limits.URLsPerFile pages.
	ErrTooManyURLs = errors.New("more URLs than the limit per file")
)

// kind is what a file turned out to be.
type kind int

const (
	urlSet kind = iota + 1 // <urlset>: pages
	index                  // <sitemapindex>: other sitemaps
	text                   // a plain list of URLs, one a line
)

// file is how one sitemap file is read: its address (relative locations resolve against
// it), the limits, and what to do with what it names.
type file struct {
	url    *url.URL
	limits Limits
	// page is called with each page the file names; it returns false to stop reading
	// (the read's limit on URLs is reached).
	page func(Entry) bool
	// child is called with each sitemap an index names.
	child func(string)
}

// parse reads body, a sitemap file as fetched (gzipped or not), and hands what it names
// to f.page and f.child as it goes. The entries handed over before an error stand: a file
// cut short by a limit, or malformed half-way, still yields what came before.
func (f *file) parse(body []byte) (kind, error) {
	var in io.Reader = bytes.NewReader(body)
	tooLarge := &limitReader{limit: f.limits.BytesPerFile}
	gzipped := len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b
	if gzipped {
		// By content, not by name: a .gz file a server sent with Content-Encoding: gzip
		// has been decompressed by the fetcher already, and some servers gzip files
		// whose names do not say so.
		z, err := gzip.NewReader(in)
		if err != nil {
			return 0, fmt.Errorf("gzip: %w", err)
		}
		defer z.Close()
		in = z
	}
	tooLarge.r = in
	br := bufio.NewReader(tooLarge)
	if isText, err := looksLikeText(br); err != nil {
		return 0, f.readError(err)
	} else if isText {
		return text, f.readError(f.parseText(br))
	}
	return f.parseXML(br, gzipped)
}

// readError is err as the caller should see it: the limit's error when the file was cut
// at the limit, else err.
func (f *file) readError(err error) error {
	if errors.Is(err, errLimit) {
		return ErrFileTooLarge
	}
	return err
}

// looksLikeText reports whether the file is a plain list of URLs rather than XML: its
// first character that is not white space (or a byte order mark) is not "<".
func looksLikeText(br *bufio.Reader) (bool, error) {
	for {
		r, _, err := br.ReadRune()
		switch {
		case err == io.EOF:
			return false, ErrNotSitemap
		case err != nil:
			return false, err
		case r == '\uFEFF' || r == ' ' || r == '\t' || r == '\r' || r == '\n':
			continue
		}
		return r != '<', br.UnreadRune()
	}
}

// parseText reads a text sitemap: one absolute URL a line, nothing else.
func (f *file) parseText(br *bufio.Reader) error {
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 4096), 64*1024)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !hasWebScheme(line) {
			// A text sitemap holds absolute URLs and nothing else; a stray line is no
			// path to resolve.
			continue
		}
		u := f.resolve(line)
		if u == "" {
			continue
		}
		if n == f.limits.URLsPerFile {
			return ErrTooManyURLs
		}
		n++
		if !f.page(Entry{URL: u, File: f.url.String()}) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if n == 0 {
		return ErrNotSitemap
	}
	return nil
}

// urlElement is a <url> element, with the image and hreflang extensions. Names match in
// any namespace: sitemaps often get their namespaces wrong, and the names alone are not
// ambiguous within a <url>.
type urlElement struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod"`
	Images  []struct {
		Loc string `xml:"loc"`
	} `xml:"image"`
	Links []struct {
		Rel      string `xml:"rel,attr"`
		Hreflang string `xml:"hreflang,attr"`
		Href     string `xml:"href,attr"`
	} `xml:"link"`
}

// sitemapElement is a <sitemap> element of an index.
type sitemapElement struct {
	Loc string `xml:"loc"`
}

// parseXML reads an XML sitemap or index from br, one element at a time.
func (f *file) parseXML(br *bufio.Reader, gzipped bool) (kind, error) {
	d := xml.NewDecoder(br)
	// Lenient, as sitemaps in the wild need: a bare "&" in a URL, an HTML entity.
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		if !gzipped {
			// The fetcher has converted a body it could read as text to UTF-8 already,
			// whatever its declaration still says.
			return in, nil
		}
		return charset.NewReaderLabel(label, in)
	}
	var k kind
	n := 0
	for depth := 0; ; {
		tok, err := d.Token()
		if err == io.EOF {
			if k == 0 {
				return 0, ErrNotSitemap
			}
			return k, nil
		}
		if err != nil {
			return k, f.malformed(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				switch t.Name.Local {
				case "urlset":
					k = urlSet
				case "sitemapindex":
					k = index
				default:
					return 0, ErrNotSitemap
				}
				continue
			}
			if depth != 2 {
				continue
			}
			switch t.Name.Local {
			case "url":
				var e urlElement
				if err := d.DecodeElement(&e, &t); err != nil {
					return k, f.malformed(err)
				}
				depth--
				u := f.resolve(e.Loc)
				if u == "" {
					continue
				}
				if n == f.limits.URLsPerFile {
					return k, ErrTooManyURLs
				}
				n++
				if !f.page(f.entry(u, &e)) {
					return k, nil
				}
			case "sitemap":
				var e sitemapElement
				if err := d.DecodeElement(&e, &t); err != nil {
					return k, f.malformed(err)
				}
				depth--
				if u := f.resolve(e.Loc); u != "" {
					f.child(u)
				}
			}
		case xml.EndElement:
			depth--
		}
	}
}

// malformed is the error of a file the decoder stopped in: the limit's when the file was
// cut there, else the decoder's, saying the XML is malformed.
func (f *file) malformed(err error) error {
	if errors.Is(err, errLimit) {
		return ErrFileTooLarge
	}
	return fmt.Errorf("malformed XML: %w", err)
}

// entry is the Entry for the <url> element e, whose location resolved to u.
func (f *file) entry(u string, e *urlElement) Entry {
	out := Entry{URL: u, LastMod: strings.TrimSpace(e.LastMod), File: f.url.String()}
	for _, img := range e.Images {
		if v := f.resolve(img.Loc); v != "" {
			out.Images = append(out.Images, v)
		}
	}
	for _, l := range e.Links {
		if !strings.EqualFold(strings.TrimSpace(l.Rel), "alternate") || strings.TrimSpace(l.Hreflang) == "" {
			continue
		}
		if v := f.resolve(l.Href); v != "" {
			out.Alternates = append(out.Alternates, Alternate{Lang: strings.TrimSpace(l.Hreflang), URL: v})
		}
	}
	return out
}

// resolve returns the http(s) URL loc names, resolved against the file's address (the
// protocol wants absolute locations; relative ones are common enough to accept); "" when
// loc is no such URL.
func (f *file) resolve(loc string) string {
	loc = strings.TrimSpace(loc)
	if loc == "" {
		return ""
	}
	ref, err := url.Parse(loc)
	if err != nil {
		return ""
	}
	u := f.url.ResolveReference(ref)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	u.Fragment = ""
	return u.String()
}

// hasWebScheme reports whether s starts with http:// or https://, in any case.
func hasWebScheme(s string) bool {
	return len(s) >= 7 && strings.EqualFold(s[:7], "http://") || len(s) >= 8 && strings.EqualFold(s[:8], "https://")
}

// errLimit is what limitReader reads past its limit.
var errLimit = errors.New("sitemap: size limit")

// limitReader reads from r up to limit bytes, then fails with errLimit: unlike
// io.LimitReader, a file cut at the limit is told from one that ended there.
type limitReader struct {
	r     io.Reader
	limit int64
	read  int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.read >= l.limit {
		// Look one byte further: a file of exactly the limit is whole.
		var one [1]byte
		n, err := io.ReadFull(l.r, one[:])
		switch {
		case n == 1:
			return 0, errLimit
		case err == io.EOF:
			return 0, io.EOF
		}
		return 0, err
	}
	if left := l.limit - l.read; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	return n, err
}
