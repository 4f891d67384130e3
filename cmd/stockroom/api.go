package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	stockroom "github.com/stockroom/stockroom/clients/go/stockroom"
)

// The commands in this file call a running service through the Go client
// (clients/go/stockroom), as any API user would: the service is named by STOCKROOM_URL and
// the key by STOCKROOM_API_KEY, the names `make run` writes to .data/run.env.

// apiOptions are the flags every API command takes.
type apiOptions struct {
	url, key string
	json     bool
	waiting  stockroom.Waiting
}

// apiFlags adds the flags of the API commands to fs; waits says whether the command waits
// for an execution, and so takes the polling flags.
func apiFlags(fs *flag.FlagSet, waits bool) *apiOptions {
	o := &apiOptions{}
	// The environment is read at use, not as the flags' defaults, so that the key never
	// shows in the help.
	fs.StringVar(&o.url, "url", "", "the service's base URL (default $STOCKROOM_URL)")
	fs.StringVar(&o.key, "api-key", "", "the API key (default $STOCKROOM_API_KEY)")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON, and no progress")
	if waits {
		fs.DurationVar(&o.waiting.FirstInterval, "poll", 10*time.Second, "first pause between status reads; each next one is half as long again")
		fs.DurationVar(&o.waiting.MaxInterval, "max-poll", 30*time.Second, "longest pause between status reads")
		fs.DurationVar(&o.waiting.Timeout, "timeout", time.Hour, "longest wait for the execution to end")
	}
	return o
}

// client is a client of the service the options name.
func (o *apiOptions) client() (*stockroom.ClientWithResponses, error) {
	if o.url == "" {
		o.url = os.Getenv("STOCKROOM_URL")
	}
	if o.key == "" {
		o.key = os.Getenv("STOCKROOM_API_KEY")
	}
	if o.url == "" || o.key == "" {
		return nil, errors.New("set STOCKROOM_URL and STOCKROOM_API_KEY (or --url and --api-key); `make run` writes both to .data/run.env")
	}
	return stockroom.NewClientWithResponses(strings.TrimSuffix(o.url, "/"), stockroom.WithAPIKey(o.key))
}

// waitWithProgress is the options' waiting, reporting progress on stderr unless the
// command prints JSON; done removes the progress bar.
func (o *apiOptions) waitWithProgress(stderr io.Writer) (w stockroom.Waiting, done func()) {
	w = o.waiting
	if o.json {
		return w, func() {}
	}
	report := newProgressReport(stderr)
	w.Progress = report.show
	return w, report.finish
}

// parseInterleaved parses args with flags before, between or after the positional
// arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func crawlCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("crawl", stderr)
	fs.Usage = usageOf(fs, "crawl [flags] URL", "Crawl a store: discover its collections and their listings, and wait for the end.")
	o := apiFlags(fs, true)
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		fs.Usage()
		return flag.ErrHelp
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	waiting, done := o.waitWithProgress(stderr)
	crawl, err := client.Crawl(ctx, positional[0], waiting)
	done()
	if crawl == nil {
		return err
	}
	if o.json {
		return errors.Join(printJSON(stdout, crawl), err)
	}
	fmt.Fprintf(stdout, "%s %s", crawl.ExecutionID, crawl.Status)
	if r := crawl.Meta.Result; r != nil {
		fmt.Fprintf(stdout, ": %d listings in %d collections", r.ListingsTotal, r.CollectionsTotal)
	}
	if crawl.Meta.DurationMs != nil {
		fmt.Fprintf(stdout, " (%s)", time.Duration(*crawl.Meta.DurationMs)*time.Millisecond)
	}
	fmt.Fprintln(stdout)
	return err
}

func extractCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("extract", stderr)
	fs.Usage = usageOf(fs, "extract [flags] URL... | --vendor HOST", "Extract full products from product URLs, or from every listing of a vendor, and wait for the end.")
	o := apiFlags(fs, true)
	vendor := fs.String("vendor", "", "extract the listings of this vendor (hostname) instead of URLs")
	maxProducts := fs.Int("max-products", 0, "with --vendor, extract at most this many products (0: all)")
	enrich := fs.Bool("enrich", false, "add the enrichment attributes")
	urls, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if (len(urls) == 0) == (*vendor == "") {
		fs.Usage()
		return flag.ErrHelp
	}
	req := stockroom.ExtractRequest{EnableEnrichment: enrich}
	if *vendor != "" {
		req.Vendor = vendor
		if *maxProducts > 0 {
			req.MaxProducts = maxProducts
		}
	} else {
		req.Urls = &urls
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	waiting, done := o.waitWithProgress(stderr)
	extract, err := client.Extract(ctx, req, waiting)
	done()
	if extract == nil {
		return err
	}
	if o.json {
		return errors.Join(printJSON(stdout, extract), err)
	}
	r := extract.Meta.Result
	fmt.Fprintf(stdout, "%s %s: %d of %d products extracted (%d failed, %d invalid)\n",
		extract.ExecutionID, extract.Status, r.ProductsSuccessful, r.ProductsRequested, r.ProductsFailed, r.ProductsInvalid)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, item := range extract.Data {
		if item.Product == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", item.Outcome, item.Message, item.URL)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", item.Product.Title, price(item.Product.Price), item.URL)
	}
	if more := extract.Pagination.TotalItems - len(extract.Data); more > 0 {
		fmt.Fprintf(tw, "… and %d more (--json, or GET /v2/extract/%s?page=2)\n", more, extract.ExecutionID)
	}
	return errors.Join(tw.Flush(), err)
}

func searchCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", stderr)
	fs.Usage = usageOf(fs, "search [flags] QUERY", "Search the indexed products in natural language, and wait for the results.")
	o := apiFlags(fs, true)
	profilePath := fs.String("profile", "", "a JSON file with the customer profile, to personalize the results")
	limit := fs.Int("limit", 0, "how many results to keep (0: the service's default)")
	words, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(words) == 0 {
		fs.Usage()
		return flag.ErrHelp
	}
	body := map[string]any{"query": strings.Join(words, " ")}
	if *limit > 0 {
		body["limit"] = *limit
	}
	if *profilePath != "" {
		// The profile is free-form: sent as the file holds it, not through a typed struct
		// that would drop the fields it does not name.
		raw, err := os.ReadFile(*profilePath)
		if err != nil {
			return err
		}
		var profile map[string]any
		if err := json.Unmarshal(raw, &profile); err != nil {
			return fmt.Errorf("profile %s is not a JSON object: %w", *profilePath, err)
		}
		body["customer_profile"] = profile
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	encoded, _ := json.Marshal(body)
	resp, err := client.StartAgenticSearchV2WithBodyWithResponse(ctx, "application/json", bytes.NewReader(encoded))
	if err != nil {
		return fmt.Errorf("start search: %w", err)
	}
	started, err := stockroom.Answer(resp.JSON202, resp.HTTPResponse, resp.Body)
	if err != nil {
		return fmt.Errorf("start search: %w", err)
	}
	waiting, done := o.waitWithProgress(stderr)
	search, err := client.WaitSearch(ctx, started.ExecutionID, waiting)
	done()
	if search == nil {
		return err
	}
	if o.json {
		return errors.Join(printJSON(stdout, search), err)
	}
	fmt.Fprintf(stdout, "%s %s: %d results for %q\n", search.ExecutionID, search.Status, search.Pagination.TotalItems, search.Meta.Query)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for i, item := range search.Data {
		p := item.Product
		fmt.Fprintf(tw, "%d.\t%s\t%s\t%s\t%s\n", i+1, p.Title, price(p.Price), p.Vendor, item.URL)
	}
	return errors.Join(tw.Flush(), err)
}

func executionsCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("executions", stderr)
	fs.Usage = usageOf(fs, "executions [flags]", "List the organization's executions (crawls, extractions, searches), newest first.")
	o := apiFlags(fs, false)
	kind := fs.String("kind", "all", "crawl, extract, search or all")
	status := fs.String("status", "", "only executions in this state: processing, completed or failed")
	limit := fs.Int("limit", 20, "how many of each kind")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	switch *kind {
	case "all", "crawl", "extract", "search":
	default:
		return fmt.Errorf("--kind %q: want crawl, extract, search or all", *kind)
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	var filter *stockroom.ExecutionStatusFilter
	if *status != "" {
		filter = (*stockroom.ExecutionStatusFilter)(status)
	}
	lists := []struct {
		kind string
		list func() (*stockroom.ExecutionListV2, error)
	}{
		{"crawl", func() (*stockroom.ExecutionListV2, error) {
			r, err := client.ListCrawlsV2WithResponse(ctx, &stockroom.ListCrawlsV2Params{Status: filter, PageSize: limit})
			if err != nil {
				return nil, err
			}
			return stockroom.Answer(r.JSON200, r.HTTPResponse, r.Body)
		}},
		{"extract", func() (*stockroom.ExecutionListV2, error) {
			r, err := client.ListExtractsV2WithResponse(ctx, &stockroom.ListExtractsV2Params{Status: filter, PageSize: limit})
			if err != nil {
				return nil, err
			}
			return stockroom.Answer(r.JSON200, r.HTTPResponse, r.Body)
		}},
		{"search", func() (*stockroom.ExecutionListV2, error) {
			r, err := client.ListAgenticSearchesV2WithResponse(ctx, &stockroom.ListAgenticSearchesV2Params{Status: filter, PageSize: limit})
			if err != nil {
				return nil, err
			}
			return stockroom.Answer(r.JSON200, r.HTTPResponse, r.Body)
		}},
	}
	type row struct {
		Kind string `json:"kind"`
		stockroom.ExecutionSummary
	}
	rows := []row{}
	for _, l := range lists {
		if *kind != "all" && *kind != l.kind {
			continue
		}
		list, err := l.list()
		if err != nil {
			return fmt.Errorf("list %s executions: %w", l.kind, err)
		}
		for _, e := range list.Data {
			rows = append(rows, row{Kind: l.kind, ExecutionSummary: e})
		}
	}
	if o.json {
		return printJSON(stdout, rows)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tSTATUS\tCREATED\tID")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Kind, r.Status, r.CreatedAt.Format(time.RFC3339), r.ExecutionID)
	}
	return tw.Flush()
}

func usageCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("usage", stderr)
	fs.Usage = usageOf(fs, "usage [flags]", "Show the organization's API calls per endpoint over a period.")
	o := apiFlags(fs, false)
	period := fs.String("period", "30d", "24h, 7d, 30d, 90d or all")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	pageSize := 100
	resp, err := client.GetUsageV2WithResponse(ctx, &stockroom.GetUsageV2Params{Period: (*stockroom.PeriodParameter)(period), PageSize: &pageSize})
	if err != nil {
		return fmt.Errorf("usage: %w", err)
	}
	usage, err := stockroom.Answer(resp.JSON200, resp.HTTPResponse, resp.Body)
	if err != nil {
		return fmt.Errorf("usage: %w", err)
	}
	if o.json {
		return printJSON(stdout, usage)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "PATH\tCALLS (%s)\n", usage.Meta.Period)
	for _, item := range usage.Data {
		fmt.Fprintf(tw, "%s\t%d\n", item.Path, item.TotalCalls)
	}
	return tw.Flush()
}

// printJSON prints v as indented JSON, for scripts.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// price is a product's price as text, empty when it has none.
func price(p *stockroom.Price) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("%.2f %s", p.CurrentValue, p.Currency)
}

// usageOf is a flag set's usage text: how to call the command, what it does, its flags.
func usageOf(fs *flag.FlagSet, synopsis, purpose string) func() {
	return func() {
		fmt.Fprintf(fs.Output(), "usage: stockroom %s\n\n%s\n\nflags:\n", synopsis, purpose)
		fs.PrintDefaults()
	}
}
