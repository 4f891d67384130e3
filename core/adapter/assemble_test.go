package adapter

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
)

func TestSharedDocumentsFetchEachURLOnce(t *testing.T) {
	var fetches atomic.Int32
	shared := NewSharedDocuments(FetcherFunc(func(ctx context.Context, url string) (*Document, error) {
		fetches.Add(1)
		return &Document{URL: url, Status: http.StatusOK}, nil
	}))
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := shared.Fetch(context.Background(), "https://shop.example/")
			if err != nil || d.Status != http.StatusOK {
				t.Errorf("fetch: %+v, %v", d, err)
			}
		}()
	}
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Errorf("16 callers made %d fetches, want 1", n)
	}
}

func TestSharedDocumentsFetchAgainAfterATransientFailure(t *testing.T) {
	statuses := []int{http.StatusServiceUnavailable, http.StatusOK, http.StatusNotFound}
	var fetches int
	shared := NewSharedDocuments(FetcherFunc(func(ctx context.Context, url string) (*Document, error) {
		fetches++
		return &Document{URL: url, Status: statuses[fetches-1]}, nil
	}))
	for i, want := range []int{http.StatusServiceUnavailable, http.StatusOK, http.StatusOK} {
		d, err := shared.Fetch(context.Background(), "https://shop.example/")
		if err != nil || d.Status != want {
			t.Errorf("call %d: %+v, %v; want status %d", i, d, err, want)
		}
	}
	if fetches != 2 {
		t.Errorf("%d fetches, want 2: the 503 again, then the 200 kept", fetches)
	}
}
