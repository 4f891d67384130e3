package document_test

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/plugins/document"
)

// BenchmarkAppState measures the application state scan per page of the benchmark
// corpus (sdktest.CorpusPages), apart from the HTML parse, which the adapters' other
// queries already pay for. CPU per page is cpu-ns/op; RATIONALE.md has the figures.
func BenchmarkAppState(b *testing.B) {
	pages := sdktest.CorpusPages(b)
	roots := make([]*html.Node, len(pages))
	for i, p := range pages {
		root, err := html.Parse(bytes.NewReader(p.Body))
		if err != nil {
			b.Fatal(err)
		}
		roots[i] = root
	}
	cpu := sdktest.StartCPU(b)
	for i := 0; i < b.N; i++ {
		document.ScanAppState(roots[i%len(roots)])
	}
	cpu.Stop(b)
}
