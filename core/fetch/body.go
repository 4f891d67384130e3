package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
	"golang.org/x/net/html/charset"
)

// acceptEncoding is what the fetcher can decode. It asks for compression itself (rather
// than let net/http do it) so that br is understood too and the size limit applies to the
// decompressed body, which a small compressed one can inflate far past.
const acceptEncoding = "gzip, deflate, br"

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// readBody reads r, undoing contentEncoding, and refuses more than limit bytes either on
// the wire or decoded. wire is the number of bytes read from r. A body of known length
// (size, the Content-Length; -1 when unknown), not encoded, is read straight into a slice
// of that size. Any other is read in blocks from blocks and copied once into a slice of
// its final size: read into a growing slice, a body of unknown length (chunked) was copied
// at every doubling into fresh memory, and a pooled growing buffer did not survive the
// garbage collections that megabyte pages bring.
func readBody(r io.Reader, contentEncoding string, size, limit int64, blocks *sync.Pool) (body []byte, wire int64, err error) {
	cr := &countingReader{r: r}
	var in io.Reader = &limitedReader{r: cr, left: limit}
	// Encodings are listed in the order they were applied; undo them last first.
	codings := strings.Split(contentEncoding, ",")
	for i := len(codings) - 1; i >= 0; i-- {
		in, err = decoder(strings.ToLower(strings.TrimSpace(codings[i])), in)
		if err != nil {
			return nil, cr.n, err
		}
	}
	in = &limitedReader{r: in, left: limit}
	if coding := strings.TrimSpace(contentEncoding); size >= 0 && size <= limit && (coding == "" || strings.EqualFold(coding, "identity")) {
		body = make([]byte, size)
		if _, err := io.ReadFull(in, body); err != nil {
			return nil, cr.n, err
		}
		return body, cr.n, nil
	}
	var read []*[bodyBlock]byte
	defer func() {
		for _, b := range read {
			blocks.Put(b)
		}
	}()
	total, last := 0, 0
	for {
		block, _ := blocks.Get().(*[bodyBlock]byte)
		if block == nil {
			block = new([bodyBlock]byte)
		}
		read = append(read, block)
		last, err = fill(in, block[:])
		total += last
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, cr.n, err
		}
	}
	body = make([]byte, 0, total)
	for _, b := range read[:len(read)-1] {
		body = append(body, b[:]...)
	}
	return append(body, read[len(read)-1][:last]...), cr.n, nil
}

// fill reads from r until p is full (nil error) or r ends (io.EOF, with what p got) or
// fails.
func fill(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := r.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// bodyBlock is the unit in which a body of unknown length is read.
const bodyBlock = 64 << 10

func decoder(coding string, r io.Reader) (io.Reader, error) {
	switch coding {
	case "", "identity":
		return r, nil
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "deflate":
		// "deflate" means zlib-wrapped (RFC 9110), but some servers send raw deflate.
		br := bufio.NewReader(r)
		head, _ := br.Peek(2)
		if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
			return zlib.NewReader(br)
		}
		return flate.NewReader(br), nil
	case "br":
		return brotli.NewReader(r), nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnsupportedEncoding, coding)
}

// limitedReader fails with ErrBodyTooLarge instead of stopping quietly at its limit, so
// that a cut body is never mistaken for a whole one.
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, ErrBodyTooLarge
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, ErrBodyTooLarge
	}
	return n, err
}

// textual reports whether a media type is text the fetcher converts to UTF-8.
func textual(mediaType string) bool {
	switch {
	case strings.HasPrefix(mediaType, "text/"),
		strings.HasSuffix(mediaType, "+xml"), strings.HasSuffix(mediaType, "/xml"),
		strings.HasSuffix(mediaType, "+json"), strings.HasSuffix(mediaType, "/json"),
		mediaType == "application/javascript", mediaType == "application/ecmascript":
		return true
	}
	return false
}

// bareMediaType is the media type of a Content-Type value, lower-cased, its parameters
// dropped unparsed: a malformed header's best reading, and a cheap one.
func bareMediaType(contentType string) string {
	mediaType, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mediaType))
}

// jsonish media types are UTF-8 unless a BOM or the header says otherwise (RFC 8259).
func jsonish(mediaType string) bool {
	return strings.HasSuffix(mediaType, "/json") || strings.HasSuffix(mediaType, "+json")
}

// decodeText returns the media type of a body, the body converted to UTF-8 and the name of
// the charset it was in (WHATWG Encoding Standard names: ISO-8859-1 is read as its superset
// "windows-1252"). Non-text bodies come back as they are, with an empty charset. The
// charset is taken from, in order: a byte order mark, the Content-Type header, an HTML
// <meta> in the first 1024 bytes, valid UTF-8, and windows-1252 as the web's last resort.
func decodeText(raw []byte, contentType string) (mediaType string, body []byte, charsetName string) {
	if contentType == "" {
		contentType = http.DetectContentType(raw)
	}
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mediaType = bareMediaType(contentType)
	}
	if !textual(mediaType) {
		return mediaType, raw, ""
	}
	enc, name, certain := charset.DetermineEncoding(raw, contentType)
	isUTF8, checked := name == "utf-8", false
	if !isUTF8 && !certain && (name == "windows-1252" || jsonish(mediaType)) {
		// DetermineEncoding looks at the first 1024 bytes only; a page that is ASCII there
		// and UTF-8 further down is UTF-8, not windows-1252.
		isUTF8, checked = utf8.Valid(raw), true
	}
	if isUTF8 {
		body := bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
		if !checked && !utf8.Valid(body) {
			body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
		}
		// A valid body (the usual case, and it can be megabytes) is not copied.
		return mediaType, body, "utf-8"
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return mediaType, bytes.ToValidUTF8(raw, []byte("\uFFFD")), "utf-8"
	}
	return mediaType, bytes.TrimPrefix(out, []byte("\xef\xbb\xbf")), name
}
