package sdk

import (
	"errors"
	"fmt"
)

// backend answers the queries of Doc, Node and Value: host functions in a WebAssembly
// guest, the document library directly in a native build. A host-side failure (an XPath
// syntax error, the handle budget exceeded) panics with a hostError, which dispatch turns
// into a failed call, so adapter code needs no error checks on queries. The handle
// slices it answers are valid until its next call: a guest decodes them into one reused
// buffer.
type backend interface {
	body(doc int) []byte
	// index returns the offset of needle in the body, -1 when absent.
	index(doc int, needle string) int
	parse(doc int, k parseKind) uint32
	// appState is the array of the page's application state objects (ABI 1.7).
	appState(doc int) uint32
	queryAll(node uint32, expr string) []uint32
	query(node uint32, expr string) uint32
	queryWords(node uint32, kind wordsKind, words string) []uint32
	// ancestor is the nearest element above node and below within (0: the document)
	// matching a CSS selector (ABI 1.3).
	ancestor(node uint32, css string, within uint32) uint32
	// cssAll and cssOne are the elements below node (itself excluded) that a CSS selector
	// matches, in document order, and the first of them (ABI 1.4).
	cssAll(node uint32, css string) []uint32
	cssOne(node uint32, css string) uint32
	// texts are the texts of the text nodes below node outside elements, node included,
	// matching a CSS selector (ABI 1.5).
	texts(node uint32, except string) []string
	nodeString(node uint32, what nodeWhat, arg string) (string, bool)
	// nodesSelect answers cssOne for each of nodes, or with above ancestor (no
	// container); nodesString answers nodeString for each, "" for an absent attribute
	// (ABI 1.6). Neither is asked about an empty list.
	nodesSelect(nodes []uint32, above bool, css string) []uint32
	nodesString(nodes []uint32, what nodeWhat, arg string) []string
	get(v uint32, path string) uint32
	kind(v uint32) Kind
	valueString(v uint32, what valueWhat) string
	// float returns NaN when v is not a number.
	float(v uint32) float64
	elems(v uint32) []uint32
	keys(v uint32) []string
	// nodeList is a new list of n zero Nodes whose capacity is n.
	nodeList(n int) []Node
	// strs returns the String of the value at each path under v (ABI 1.2).
	strs(v uint32, paths []string) []string
	// shape evaluates a template over v (ABI 1.2).
	shape(v uint32, template string, vars []uint32) uint32
}

// parseKind and nodeWhat are ABI values: see ABI.md, doc_parse and node_string.
type parseKind uint32

const (
	parseHTML parseKind = iota
	parseJSON
	parseJSONLD
	parseMicrodata // ABI 1.1
)

// wordsKind is an ABI value: see ABI.md, query_words (ABI 1.1).
type wordsKind uint32

const (
	wordsClass wordsKind = iota
	wordsLabel
)

type nodeWhat uint32

const (
	nodeText nodeWhat = iota
	nodeAttr
	nodeName
	nodeOuterHTML
	nodeInnerHTML
)

type valueWhat uint32

const (
	valueString valueWhat = iota
	valueRaw
	valueHTMLText
)

type hostError struct{ msg string }

func (e hostError) Error() string { return e.msg }

// wireDoc and wireRequest are the request of ABI.md; a guest reads it through a Value,
// the native path builds it from the adapter.Request.
type wireDoc struct {
	URL      string              `json:"url"`
	FinalURL string              `json:"final_url,omitempty"`
	Status   int                 `json:"status"`
	Err      string              `json:"err,omitempty"`
	Header   map[string][]string `json:"header,omitempty"`
}

type wireRequest struct {
	Op     string    `json:"op"`
	URL    string    `json:"url,omitempty"`
	Cursor string    `json:"cursor,omitempty"`
	Total  int       `json:"total,omitempty"`
	Round  int       `json:"round,omitempty"`
	Docs   []wireDoc `json:"docs,omitempty"`
}

// wireResponse is the JSON a guest answers with (ABI.md).
type wireResponse struct {
	Info        *Info        `json:"info,omitempty"`
	Fetch       []string     `json:"fetch,omitempty"`
	Detection   *Detection   `json:"detection,omitempty"`
	Collections []Collection `json:"collections,omitempty"`
	Listings    []Listing    `json:"listings,omitempty"`
	Next        string       `json:"next,omitempty"`
	Total       int          `json:"total,omitempty"`
	Ahead       []string     `json:"ahead,omitempty"`
	Product     *Product     `json:"product,omitempty"`
	Outcome     string       `json:"outcome,omitempty"`
	Message     string       `json:"message,omitempty"`
	// splices are members given as values (Call.Splice), which the host puts in place of
	// the fields of those names.
	splices []splice
}

func newCall(req *wireRequest, b backend) *Call {
	c := &Call{op: req.Op, url: req.URL, cursor: req.Cursor, total: req.Total, round: req.Round, docs: make([]*Doc, len(req.Docs))}
	for i, d := range req.Docs {
		c.docs[i] = &Doc{URL: d.URL, FinalURL: d.FinalURL, Status: d.Status, Err: d.Err, header: d.Header, index: i, b: b}
	}
	return c
}

// dispatch runs the operation c names on a. Outcome errors and ErrPending become parts of
// the response; any other error, and any panic, fail the call.
func dispatch(a Adapter, c *Call) (resp wireResponse, err error) {
	defer func() {
		if p := recover(); p != nil {
			if he, ok := p.(hostError); ok {
				err = he
				return
			}
			err = fmt.Errorf("adapter panicked: %v", p)
		}
	}()
	missing := func() error { return fmt.Errorf("adapter %s does not implement %s", a.Info().Name, c.op) }
	switch c.op {
	case "info":
		info := a.Info()
		info.Capabilities = capabilities(a)
		resp.Info = &info
	case "detect":
		d, ok := a.(Detector)
		if !ok {
			return resp, missing()
		}
		resp.Detection, err = d.Detect(c)
	case "discover":
		d, ok := a.(Discoverer)
		if !ok {
			return resp, missing()
		}
		resp.Collections, err = d.Discover(c)
	case "list":
		l, ok := a.(Lister)
		if !ok {
			return resp, missing()
		}
		var p Page
		p, err = l.List(c)
		resp.Listings, resp.Next, resp.Total, resp.Ahead = p.Listings, p.Next, p.Total, p.Ahead
	case "extract":
		e, ok := a.(Extractor)
		if !ok {
			return resp, missing()
		}
		resp.Product, err = e.Extract(c)
	case "assemble":
		e, ok := a.(Assembler)
		if !ok {
			return resp, missing()
		}
		resp.Product, err = e.Assemble(c)
	default:
		return resp, fmt.Errorf("unknown operation %q", c.op)
	}
	var oe *OutcomeError
	switch {
	case err == nil:
	case errors.Is(err, ErrPending):
		err = nil
	case errors.As(err, &oe):
		resp.Outcome, resp.Message, err = oe.Outcome, oe.Message, nil
	}
	resp.Fetch = c.need
	resp.splices = c.splices
	return resp, err
}
