package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/stockroom/stockroom/core/enrich"
)

// Planner is an optional helper for query understanding and re-ranking, such as a
// language model. The pipeline treats every error as "no help": the deterministic reading
// and order stand. A Planner can add to the deterministic reading, never remove from it,
// and can only reorder results, so hard constraints hold whatever it answers.
type Planner interface {
	// Plan reads a query (and profile) into a structured plan.
	Plan(ctx context.Context, query string, profile map[string]any) (Plan, error)
	// Rerank returns the item ids best first.
	Rerank(ctx context.Context, query string, profile map[string]any, items []RerankItem) ([]string, error)
}

// Plan is a planner's reading of a query.
type Plan struct {
	Terms     []string `json:"terms"`
	Colors    []string `json:"colors"`
	Materials []string `json:"materials"`
	Styles    []string `json:"styles"`
	MinPrice  *float64 `json:"min_price"`
	MaxPrice  *float64 `json:"max_price"`
	InStock   bool     `json:"in_stock"`
	Exclude   []string `json:"exclude"`
	// Sort is "price_asc", "price_desc" or "".
	Sort string `json:"sort"`
}

// RerankItem is one result shown to a planner for re-ranking.
type RerankItem struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Brand   string   `json:"brand,omitempty"`
	Price   *float64 `json:"price,omitempty"`
	Reasons []string `json:"reasons,omitempty"`
}

// mergePlan adds a planner's reading to the deterministic one: its hard constraints are
// added (the tighter price bound wins), its terms and attributes join the soft ones.
func mergePlan(ps *parser, u Understood, pl Plan) Understood {
	if pl.MinPrice != nil && *pl.MinPrice >= 0 && (u.MinPrice == nil || *pl.MinPrice > *u.MinPrice) {
		u.MinPrice = pl.MinPrice
	}
	if pl.MaxPrice != nil && *pl.MaxPrice >= 0 && (u.MaxPrice == nil || *pl.MaxPrice < *u.MaxPrice) {
		u.MaxPrice = pl.MaxPrice
	}
	u.InStock = u.InStock || pl.InStock
	for _, ex := range pl.Exclude {
		if ph, ok := ps.avoidPhrase(ex); ok {
			ph.Kind = "word"
			u.Exclude = appendPhrase(u.Exclude, ph)
		}
	}
	if u.Sort == "" && (pl.Sort == "price_asc" || pl.Sort == "price_desc") {
		u.Sort = pl.Sort
	}
	hasHead := false
	for _, t := range u.Terms {
		hasHead = hasHead || t.Head
	}
	for _, t := range pl.Terms {
		st := phraseStems(t)
		if len(st) == 0 || hasTerm(u.Terms, t) {
			continue
		}
		u.Terms = append(u.Terms, Term{Text: strings.Join(words(t), " "), Head: !hasHead, Phrases: ps.synonymPhrases(strings.Join(st, " ")), Exact: [][]string{st}})
		hasHead = true
	}
	for kind, values := range map[string][]string{enrich.LexiconColor: pl.Colors, enrich.LexiconMaterial: pl.Materials, enrich.LexiconStyle: pl.Styles} {
		for _, v := range values {
			st := phraseStems(v)
			if len(st) == 0 {
				continue
			}
			for _, e := range ps.byFirst[st[0]] {
				if e.kind == kind && len(e.words) == len(st) && containsPhrase(st, e.words) && !hasAttribute(u.Attributes, kind, e.value) {
					u.Attributes = append(u.Attributes, Attribute{Kind: kind, Value: e.value, Said: v, Phrases: ps.attrPhrases[kind][e.value], Exact: [][]string{st}})
					break
				}
			}
		}
	}
	return u
}

func hasTerm(ts []Term, text string) bool {
	for _, t := range ts {
		if t.Text == strings.Join(words(text), " ") {
			return true
		}
	}
	return false
}

func hasAttribute(as []Attribute, kind, value string) bool {
	for _, a := range as {
		if a.Kind == kind && a.Value == value {
			return true
		}
	}
	return false
}

// ChatPlanner is a Planner over any OpenAI-compatible chat-completions endpoint.
type ChatPlanner struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1; /chat/completions is added.
	BaseURL string
	Model   string
	APIKey  string
	// Timeout bounds one request. Default 5s.
	Timeout time.Duration
	// Client defaults to a plain http.Client.
	Client *http.Client
}

const planPrompt = `You turn a shopping query into JSON with exactly these keys:
{"terms": [product words], "colors": [], "materials": [], "styles": [], "min_price": number or null,
"max_price": number or null, "in_stock": boolean, "exclude": [words the shopper does not want],
"sort": "price_asc" | "price_desc" | ""}. Answer with the JSON object only.`

const rerankPrompt = `You order shopping results for a query and an optional customer profile.
Answer with JSON only: {"order": [item ids, best first]}, using only the ids given.`

// Plan implements Planner.
func (c *ChatPlanner) Plan(ctx context.Context, query string, profile map[string]any) (Plan, error) {
	user, err := json.Marshal(map[string]any{"query": query, "customer_profile": profile})
	if err != nil {
		return Plan{}, err
	}
	content, err := c.complete(ctx, planPrompt, string(user))
	if err != nil {
		return Plan{}, err
	}
	var pl Plan
	if err := strictJSON(content, &pl); err != nil {
		return Plan{}, fmt.Errorf("planner reply: %w", err)
	}
	if pl.Sort != "" && pl.Sort != "price_asc" && pl.Sort != "price_desc" {
		return Plan{}, fmt.Errorf("planner reply: unknown sort %q", pl.Sort)
	}
	return pl, nil
}

// Rerank implements Planner.
func (c *ChatPlanner) Rerank(ctx context.Context, query string, profile map[string]any, items []RerankItem) ([]string, error) {
	user, err := json.Marshal(map[string]any{"query": query, "customer_profile": profile, "items": items})
	if err != nil {
		return nil, err
	}
	content, err := c.complete(ctx, rerankPrompt, string(user))
	if err != nil {
		return nil, err
	}
	var reply struct {
		Order []string `json:"order"`
	}
	if err := strictJSON(content, &reply); err != nil {
		return nil, fmt.Errorf("planner re-ranking reply: %w", err)
	}
	known := make(map[string]bool, len(items))
	for _, it := range items {
		known[it.ID] = true
	}
	for _, id := range reply.Order {
		if !known[id] {
			return nil, fmt.Errorf("planner re-ranking reply: unknown id %q", id)
		}
	}
	return reply.Order, nil
}

// complete sends one chat completion and returns the reply's content.
func (c *ChatPlanner) complete(ctx context.Context, system, user string) (string, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, err := json.Marshal(map[string]any{
		"model":           c.Model,
		"temperature":     0,
		"response_format": map[string]string{"type": "json_object"},
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": user},
		},
	})
	if err != nil {
		return "", err
	}
	url := strings.TrimRight(c.BaseURL, "/") + "/chat/completions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("planner request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	client := c.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("planner request: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("planner reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("planner answered HTTP %d", resp.StatusCode)
	}
	var completion struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &completion); err != nil {
		return "", fmt.Errorf("planner reply: %w", err)
	}
	if len(completion.Choices) == 0 {
		return "", errors.New("planner reply has no choices")
	}
	return completion.Choices[0].Message.Content, nil
}

// strictJSON decodes exactly one JSON object with only known fields.
func strictJSON(s string, v any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
