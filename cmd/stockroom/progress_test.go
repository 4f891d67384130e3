package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	stockroom "github.com/stockroom/stockroom/clients/go/stockroom"
)

func itoa(n int) string { return strconv.Itoa(n) }

func crawlProgress(running int, done int) stockroom.Progress {
	names := []string{"Determining crawl method", "Discovering collections", "Analyzing collections", "Extracting listings"}
	p := stockroom.Progress{Status: stockroom.ExecutionStatusRunning, Done: done, Unit: "listings"}
	for i, name := range names {
		status := stockroom.ExecutionStatusPending
		switch {
		case i < running:
			status = stockroom.ExecutionStatusCompleted
		case i == running:
			status = stockroom.ExecutionStatusRunning
		}
		p.Steps = append(p.Steps, stockroom.Step{Name: name, Status: status})
	}
	return p
}

// On a terminal the bar names the running step and counts; each step's end gets a line,
// once.
func TestProgressBarShowsTheRunningStep(t *testing.T) {
	var out bytes.Buffer
	r := &progressReport{w: &out, live: true, reported: map[string]bool{}}
	r.show(crawlProgress(1, 0))
	r.show(crawlProgress(2, 0))
	r.show(crawlProgress(3, 140))
	r.show(crawlProgress(3, 230))
	r.finish()
	got := out.String()
	for _, want := range []string{"[2/4] Discovering collections", "[4/4] Extracting listings", "230 listings", "✓ [1/4] Determining crawl method\n", "✓ [3/4] Analyzing collections\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress %q lacks %q", got, want)
		}
	}
	if n := strings.Count(got, "✓ [1/4]"); n != 1 {
		t.Errorf("the first step's end shown %d times", n)
	}
}

// Elsewhere than on a terminal only the steps' ends are written, one line each.
func TestProgressInALogIsOneLinePerStep(t *testing.T) {
	var out bytes.Buffer
	r := newProgressReport(&out)
	r.show(crawlProgress(2, 0))
	r.show(crawlProgress(2, 10))
	r.show(crawlProgress(4, 60))
	r.finish()
	want := "✓ [1/4] Determining crawl method\n✓ [2/4] Discovering collections\n✓ [3/4] Analyzing collections\n✓ [4/4] Extracting listings\n"
	if got := out.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
