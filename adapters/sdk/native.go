//go:build !wasip1

package sdk

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/document"
	"github.com/stockroom/stockroom/plugins/wire"
)

// Serve does nothing in a native build: natively, adapters are run through Native. It
// exists so a guest's init compiles unchanged on both sides.
func Serve(Adapter) {}

// Native returns a as an adapter.Module that runs in-process, calling the host's document
// library directly instead of through WebAssembly host functions. Use it to debug an
// adapter with ordinary Go tools and to measure what the WebAssembly path costs.
func Native(a Adapter) adapter.Module {
	info := a.Info()
	caps := make([]adapter.Op, 0, 4)
	for _, c := range capabilities(a) {
		caps = append(caps, adapter.Op(c))
	}
	return &native{a: a, info: adapter.Info{
		Name: info.Name, Version: info.Version, Platforms: info.Platforms,
		URLPatterns: info.URLPatterns, CollectionPatterns: info.CollectionPatterns, Capabilities: caps,
	}}
}

type native struct {
	a    Adapter
	info adapter.Info
	// sessions are reused from call to call, as a guest instance reuses its own.
	sessions sync.Pool
}

func (n *native) Info() adapter.Info { return n.info }

func (n *native) Call(ctx context.Context, req *adapter.Request) (*adapter.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, _ := n.sessions.Get().(*document.Session)
	if s == nil {
		s = document.NewSession(nil, 0)
	}
	s.Reset(req.Docs)
	defer func() {
		s.Reset(nil)
		n.sessions.Put(s)
	}()
	c := newCall(wireRequestOf(req), nativeBackend{s})
	resp, err := dispatch(n.a, c)
	if err != nil {
		return nil, err
	}
	out := resp.toAdapter()
	if err := applySplices(out, resp.splices); err != nil {
		return nil, fmt.Errorf("adapter %s: %w", n.info.Name, err)
	}
	return out, nil
}

// applySplices puts the members the adapter gave as values (Call.Splice) into out, as the
// host does for a guest, so both paths accept and refuse the same.
func applySplices(out *adapter.Response, splices []splice) error {
	if len(splices) == 0 {
		return nil
	}
	members := make([]wire.Member, len(splices))
	for i, s := range splices {
		members[i] = wire.Member{Name: s.member, Raw: s.v.Raw()}
	}
	return wire.Splice(out, members)
}

// wireRequestOf renders req as the request a guest receives (header names in lower case),
// so the native path hands the adapter exactly what the WebAssembly path does.
func wireRequestOf(req *adapter.Request) *wireRequest {
	w := &wireRequest{Op: string(req.Op), URL: req.URL, Cursor: req.Cursor, Total: req.Total, Round: req.Round, Docs: make([]wireDoc, len(req.Docs))}
	for i, d := range req.Docs {
		var h map[string][]string
		if len(d.Header) > 0 {
			h = make(map[string][]string, len(d.Header))
			for k, v := range d.Header {
				h[strings.ToLower(k)] = v
			}
		}
		w.Docs[i] = wireDoc{URL: d.URL, FinalURL: d.FinalURL, Status: d.Status, Err: d.Err, Header: h}
	}
	return w
}

func (r *wireResponse) toAdapter() *adapter.Response {
	out := &adapter.Response{Fetch: r.Fetch, Next: r.Next, Total: r.Total, Ahead: r.Ahead, Product: r.Product, Outcome: adapter.Outcome(r.Outcome), Message: r.Message}
	if d := r.Detection; d != nil {
		out.Detection = &adapter.Detection{Platform: d.Platform, Confidence: d.Confidence, Evidence: d.Evidence}
	}
	for _, c := range r.Collections {
		out.Collections = append(out.Collections, adapter.Collection(c))
	}
	for _, l := range r.Listings {
		out.Listings = append(out.Listings, adapter.Listing(l))
	}
	return out
}

// nativeBackend answers queries from a document.Session in-process.
type nativeBackend struct{ s *document.Session }

func check(err error) {
	if err != nil {
		panic(hostError{err.Error()})
	}
}

func (b nativeBackend) body(doc int) []byte {
	if d := b.s.Doc(doc); d != nil {
		return d.Body
	}
	return nil
}

func (b nativeBackend) index(doc int, needle string) int {
	return bytes.Index(b.body(doc), []byte(needle))
}

func (b nativeBackend) parse(doc int, k parseKind) uint32 {
	var v uint32
	switch k {
	case parseHTML:
		h, err := b.s.HTML(doc)
		check(err)
		v = uint32(h)
	case parseJSON:
		h, err := b.s.JSON(doc)
		check(err)
		v = uint32(h)
	case parseJSONLD:
		h, err := b.s.JSONLD(doc)
		check(err)
		v = uint32(h)
	case parseMicrodata:
		h, err := b.s.Microdata(doc)
		check(err)
		v = uint32(h)
	}
	return v
}

func (b nativeBackend) appState(doc int) uint32 {
	h, err := b.s.AppState(doc)
	check(err)
	return uint32(h)
}

func (nativeBackend) nodeList(n int) []Node { return make([]Node, n) }

func (b nativeBackend) queryAll(node uint32, expr string) []uint32 {
	hs, err := b.s.QueryAll(document.Node(node), expr, nil)
	return handlesOf(hs, err)
}

func (b nativeBackend) queryWords(node uint32, kind wordsKind, words string) []uint32 {
	hs, err := b.s.FindWords(document.Node(node), document.WordsKind(kind), strings.Split(words, "\n"), nil)
	return handlesOf(hs, err)
}

func (b nativeBackend) query(node uint32, expr string) uint32 {
	h, err := b.s.Query(document.Node(node), expr)
	check(err)
	return uint32(h)
}

func (b nativeBackend) ancestor(node uint32, css string, within uint32) uint32 {
	h, err := b.s.Ancestor(document.Node(node), css, document.Node(within))
	check(err)
	return uint32(h)
}

func (b nativeBackend) cssAll(node uint32, css string) []uint32 {
	hs, err := b.s.Select(document.Node(node), css, nil)
	return handlesOf(hs, err)
}

// handlesOf is a query's nodes as the handles a guest gets, or its error raised.
func handlesOf(hs []document.Node, err error) []uint32 {
	check(err)
	out := make([]uint32, len(hs))
	for i, h := range hs {
		out[i] = uint32(h)
	}
	return out
}

func (b nativeBackend) cssOne(node uint32, css string) uint32 {
	h, err := b.s.SelectOne(document.Node(node), css)
	check(err)
	return uint32(h)
}

func (b nativeBackend) texts(node uint32, except string) []string {
	texts, err := b.s.Texts(document.Node(node), except, nil)
	check(err)
	return texts
}

func (b nativeBackend) nodeString(node uint32, what nodeWhat, arg string) (string, bool) {
	n := document.Node(node)
	switch what {
	case nodeText:
		return b.s.Text(n), true
	case nodeAttr:
		return b.s.Attr(n, arg)
	case nodeName:
		return b.s.Name(n), true
	case nodeOuterHTML:
		return b.s.OuterHTML(n), true
	case nodeInnerHTML:
		return b.s.InnerHTML(n), true
	}
	return "", false
}

func (b nativeBackend) nodesSelect(nodes []uint32, above bool, css string) []uint32 {
	ns := make([]document.Node, len(nodes))
	for i, h := range nodes {
		ns[i] = document.Node(h)
	}
	hs, err := b.s.SelectEach(ns, css, above, nil)
	return handlesOf(hs, err)
}

func (b nativeBackend) nodesString(nodes []uint32, what nodeWhat, arg string) []string {
	out := make([]string, len(nodes))
	for i, h := range nodes {
		out[i], _ = b.nodeString(h, what, arg)
	}
	return out
}

func (b nativeBackend) get(v uint32, path string) uint32 {
	h, err := b.s.Get(document.Value(v), path)
	check(err)
	return uint32(h)
}

func (b nativeBackend) kind(v uint32) Kind { return Kind(b.s.Kind(document.Value(v))) }

func (b nativeBackend) valueString(v uint32, what valueWhat) string {
	switch what {
	case valueRaw:
		return b.s.Raw(document.Value(v))
	case valueHTMLText:
		return b.s.HTMLText(document.Value(v))
	}
	return b.s.String(document.Value(v))
}

func (b nativeBackend) float(v uint32) float64 {
	if f, ok := b.s.Float(document.Value(v)); ok {
		return f
	}
	return math.NaN()
}

func (b nativeBackend) elems(v uint32) []uint32 {
	hs, err := b.s.Elems(document.Value(v), nil, nil)
	check(err)
	out := make([]uint32, len(hs))
	for i, h := range hs {
		out[i] = uint32(h)
	}
	return out
}

func (b nativeBackend) keys(v uint32) []string {
	var keys []string
	_, err := b.s.Elems(document.Value(v), nil, &keys)
	check(err)
	return keys
}

func (b nativeBackend) shape(v uint32, template string, vars []uint32) uint32 {
	hs := make([]document.Value, len(vars))
	for i, h := range vars {
		hs[i] = document.Value(h)
	}
	h, err := b.s.Shape(document.Value(v), template, hs)
	check(err)
	return uint32(h)
}

func (b nativeBackend) strs(v uint32, paths []string) []string {
	return b.s.Strings(document.Value(v), paths, make([]string, 0, len(paths)))
}
