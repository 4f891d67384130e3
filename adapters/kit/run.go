package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/core/adapter"
)

// Request is one operation run on a saved page: what `stockroom adapter run` and each
// operation of a test case ask.
type Request struct {
	// Op is "detect", "discover", "list" or "extract"; "" means extract.
	Op string
	// URL is the saved page's address; FinalURL the address it landed on after
	// redirects, "" when it was not redirected.
	URL, FinalURL string
	// File is the saved page; "" means none (an extraction then fails as a fetch would).
	File string
	// Docs is the folder of saved follow-up documents (see savedPages); "" for none.
	Docs string
	// Platform is the platform discover and list run for, as a crawl detects it on the
	// store's home page; nil detects it on the saved page. "" runs the generic adapters.
	Platform *string
	// Collection is the collection a list call lists; "" means URL (the saved page is the
	// collection's first page).
	Collection string
	// Cursor is a list call's page position, "" for the first page; HostTotal the
	// products the host knows the collection holds, 0 when unknown.
	Cursor    string
	HostTotal int
}

// Ops are the operations the kit runs, in the order a crawl asks them.
var Ops = []string{string(adapter.OpDetect), string(adapter.OpDiscover), string(adapter.OpList), string(adapter.OpExtract)}

// Run runs the operation req asks on its saved page and writes the answer as indented
// JSON to w. spec chooses the adapters:
//
//   - "" runs what the service runs: every built-in adapter and every adapter of the
//     adapters folder, under the service's rules (adapter.Set: detection, order, merge).
//   - a module file (FILE.wasm) runs that module beside them, as an adapter installed in
//     the adapters folder would run.
//   - the name of a built-in adapter or of one in the adapters folder runs it alone, to
//     see its own answer.
//
// An extraction prints the v2 product, or {"outcome", "message"}; the other operations
// print the answers described in adapters/ABI.md, "Authoring kit".
func (e Env) Run(ctx context.Context, w io.Writer, spec string, req Request) error {
	var src adapter.Source
	var closeSrc func()
	var err error
	if spec == "" || isModuleFile(spec) {
		src, closeSrc, err = e.service(ctx, spec)
	} else {
		src, closeSrc, err = e.alone(ctx, spec)
	}
	if err != nil {
		return err
	}
	defer closeSrc()
	out, err := e.answer(ctx, src, req)
	if err != nil {
		return err
	}
	if req.Op == "" || req.Op == string(adapter.OpExtract) {
		out = printedExtraction(out)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// answer runs the operation req asks with the adapters of src, through an adapter.Set as
// the service does, and renders its answer (answers.go).
func (e Env) answer(ctx context.Context, src adapter.Source, req Request) (map[string]any, error) {
	set := &adapter.Set{Source: src, Logger: e.Logger}
	page := &adapter.Document{URL: req.URL, Err: "no page given"}
	if req.File != "" {
		var err error
		if page, err = savedPage(req.URL, req.FinalURL, req.File); err != nil {
			return nil, err
		}
	}
	set.Fetcher = savedPages{page: page, dir: req.Docs}
	platform := func() (string, error) {
		if req.Platform != nil {
			return *req.Platform, nil
		}
		dets, err := set.Detect(ctx, page)
		if err != nil || len(dets) == 0 {
			return "", err
		}
		return dets[0].Platform, nil
	}
	switch req.Op {
	case string(adapter.OpDetect):
		dets, err := set.Detect(ctx, page)
		if err != nil {
			return nil, err
		}
		return detectAnswer(dets), nil
	case string(adapter.OpDiscover):
		p, err := platform()
		if err != nil {
			return nil, err
		}
		found, err := set.Discovery(ctx, p, page)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return discoverAnswer(p, found, err), nil
	case string(adapter.OpList):
		p, err := platform()
		if err != nil {
			return nil, err
		}
		collection := req.Collection
		if collection == "" {
			collection = req.URL
		}
		lp, err := set.List(ctx, p, collection, req.Cursor, req.HostTotal)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return listAnswer(p, lp, err), nil
	case "", string(adapter.OpExtract):
		res, err := set.Extract(ctx, req.URL, page)
		if err != nil {
			return nil, err
		}
		return extractAnswer(res, req.URL), nil
	}
	return nil, fmt.Errorf("unknown operation %q: want one of %v", req.Op, Ops)
}

// Explain writes how the candidate ranker (adapters/rank) reads the saved page file, with
// the weights the built-in adapters ship: per field, the candidates with their source,
// features and score, and which won. It reads the page natively with the guest's code.
func (e Env) Explain(ctx context.Context, w io.Writer, rawURL, file string) error {
	body, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	g, err := rank.GatherPage(ctx, rawURL, body)
	if err != nil {
		return fmt.Errorf("explain %s: %w", file, err)
	}
	rank.Default().Rank(g).Explain(w)
	return nil
}
