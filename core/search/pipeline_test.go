package search

import (
	"context"
	"sync"
	"testing"
)

// recordingStore finds nothing and records what it was asked.
type recordingStore struct {
	Store
	mu      sync.Mutex
	queries []CandidateQuery
	vocab   Vocabulary
	loads   int
}

func (s *recordingStore) Vocabulary(context.Context) (Vocabulary, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loads++
	return s.vocab, nil
}

func (s *recordingStore) Candidates(_ context.Context, q CandidateQuery) ([]Candidate, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries = append(s.queries, q)
	return nil, nil
}

func TestTrigramRetrievalOnlyForUnknownWords(t *testing.T) {
	for query, wantFuzzy := range map[string]bool{
		"hiking boots": false, // known words: the text search has said all there is
		"hoodei":       false, // corrected to hoodie
		"zorbly boots": true,  // unknown to the catalog and the vocabularies
	} {
		store := &recordingStore{vocab: testVocabulary}
		p := NewPipeline(store, nil, nil, nil, PipelineOptions{})
		if _, err := p.Search(context.Background(), Query{Request: Request{Query: query}, Mini: true}); err != nil {
			t.Fatal(err)
		}
		fuzzy := false
		for _, q := range store.queries {
			fuzzy = fuzzy || q.Fuzzy != ""
			if q.Window != 4*q.Limit {
				t.Errorf("%q: window %d for a pool of %d, want 4 times the pool", query, q.Window, q.Limit)
			}
		}
		if fuzzy != wantFuzzy {
			t.Errorf("%q: trigram retrieval asked = %v, want %v (queries %+v)", query, fuzzy, wantFuzzy, store.queries)
		}
	}
}

func TestVocabularyOfAnEmptyCatalogIsReadAgain(t *testing.T) {
	store := &recordingStore{}
	p := NewPipeline(store, nil, nil, nil, PipelineOptions{})
	ctx := context.Background()
	search := func() {
		t.Helper()
		if _, err := p.Search(ctx, Query{Request: Request{Query: "boots"}, Mini: true}); err != nil {
			t.Fatal(err)
		}
	}
	search()
	store.mu.Lock()
	store.vocab = testVocabulary
	store.mu.Unlock()
	search()
	search()
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.loads != 2 {
		t.Errorf("vocabulary read %d times, want 2: again after the empty catalog, then kept", store.loads)
	}
}

func TestPreloadReadsTheVocabularyBeforeTheFirstSearch(t *testing.T) {
	store := &recordingStore{vocab: testVocabulary}
	p := NewPipeline(store, nil, nil, nil, PipelineOptions{})
	ctx := context.Background()
	p.Preload(ctx)
	// The first search waits for the load in flight rather than starting another.
	if _, err := p.Search(ctx, Query{Request: Request{Query: "boots"}, Mini: true}); err != nil {
		t.Fatal(err)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.loads != 1 {
		t.Errorf("vocabulary read %d times, want once", store.loads)
	}
}

func TestPriceBoundsThatNoPriceMeetsRetrieveNothing(t *testing.T) {
	store := &recordingStore{vocab: testVocabulary}
	p := NewPipeline(store, nil, nil, nil, PipelineOptions{})
	out, err := p.Search(context.Background(), Query{Request: Request{Query: "boots over $100 under $70"}, Mini: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Hits) != 0 || len(store.queries) != 0 {
		t.Errorf("hits %v after %d retrievals; want none of either", out.Hits, len(store.queries))
	}
}
