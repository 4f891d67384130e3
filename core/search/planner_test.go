package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakeChat is an OpenAI-compatible endpoint on loopback answering content (or status).
func fakeChat(t *testing.T, status int, content string, delay time.Duration) *ChatPlanner {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "wrong request", http.StatusBadRequest)
			return
		}
		var body struct {
			Model    string `json:"model"`
			Messages []any  `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Model != "m" || len(body.Messages) != 2 {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.WriteHeader(status)
		reply, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
		w.Write(reply)
	}))
	t.Cleanup(srv.Close)
	return &ChatPlanner{BaseURL: srv.URL + "/v1/", Model: "m", APIKey: "k", Timeout: 300 * time.Millisecond}
}

func TestChatPlannerReadsAStrictJSONPlan(t *testing.T) {
	c := fakeChat(t, 200, `{"terms":["boot"],"colors":["olive"],"materials":[],"styles":[],"min_price":null,"max_price":120,"in_stock":true,"exclude":["suede"],"sort":""}`, 0)
	pl, err := c.Plan(context.Background(), "olive boots up to 120, no suede", nil)
	if err != nil {
		t.Fatal(err)
	}
	if *pl.MaxPrice != 120 || !pl.InStock || pl.Exclude[0] != "suede" || pl.Colors[0] != "olive" {
		t.Errorf("plan = %+v", pl)
	}
	// Merged with the deterministic reading, the plan adds and tightens, never loosens.
	p := newParser(testVocabulary)
	u := mergePlan(p, p.parse("boots under $100"), pl)
	if *u.MaxPrice != 100 || !u.InStock || len(u.Exclude) != 1 || !hasAttribute(u.Attributes, "color", "green") {
		t.Errorf("merged = %s", summary(u))
	}
}

func TestChatPlannerFailuresAreErrors(t *testing.T) {
	for name, c := range map[string]*ChatPlanner{
		"garbage":       fakeChat(t, 200, `sure! here are some boots`, 0),
		"unknown field": fakeChat(t, 200, `{"terms":[],"mood":"happy"}`, 0),
		"bad sort":      fakeChat(t, 200, `{"sort":"random"}`, 0),
		"http error":    fakeChat(t, 500, `{}`, 0),
		"timeout":       fakeChat(t, 200, `{}`, 2*time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			if _, err := c.Plan(context.Background(), "boots", nil); err == nil {
				t.Error("no error")
			}
			if time.Since(start) > time.Second {
				t.Errorf("took %s: the timeout was not applied", time.Since(start))
			}
		})
	}
}

func TestChatPlannerRerankOnlyKnownIDs(t *testing.T) {
	items := []RerankItem{{ID: "a", Title: "A"}, {ID: "b", Title: "B"}}
	order, err := fakeChat(t, 200, `{"order":["b","a"]}`, 0).Rerank(context.Background(), "q", nil, items)
	if err != nil || strings.Join(order, ",") != "b,a" {
		t.Errorf("order %v, err %v", order, err)
	}
	if _, err := fakeChat(t, 200, `{"order":["z"]}`, 0).Rerank(context.Background(), "q", nil, items); err == nil {
		t.Error("an invented id was accepted")
	}
}

// fallbackStore serves fixed candidates, for the pipeline's planner fallback.
type fallbackStore struct{ Store }

func (fallbackStore) Vocabulary(context.Context) (Vocabulary, error) { return testVocabulary, nil }
func (fallbackStore) Candidates(context.Context, CandidateQuery) ([]Candidate, error) {
	return []Candidate{cand("cheap", "Boot", 40), cand("dear", "Boot", 200)}, nil
}

func TestPipelineFallsBackWhenThePlannerFails(t *testing.T) {
	for name, planner := range map[string]*ChatPlanner{
		"garbage": fakeChat(t, 200, `not json`, 0),
		"timeout": fakeChat(t, 200, `{}`, 2*time.Second),
		"down":    {BaseURL: "http://127.0.0.1:1", Model: "m", Timeout: 200 * time.Millisecond},
	} {
		t.Run(name, func(t *testing.T) {
			p := NewPipeline(fallbackStore{}, nil, nil, nil, PipelineOptions{Planner: planner})
			out, err := p.Search(context.Background(), Query{Request: Request{Query: "boots under $100"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Hits) != 1 || out.Hits[0].ProductID != "cheap" {
				t.Errorf("hits %+v: the deterministic reading (under $100) should stand", out.Hits)
			}
		})
	}
}
