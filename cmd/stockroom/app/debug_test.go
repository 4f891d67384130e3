package app

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The profiling endpoints answer on their own listener and stop with their context.
func TestServeDebugAnswersUntilStopped(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := l.Addr().String()
	l.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	if err := serveDebug(ctx, address, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + address + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine") {
		t.Fatalf("index: %d %.200s", resp.StatusCode, body)
	}
	stop()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.Dial("tcp", address)
		if err != nil {
			return
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still listening after its context ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
