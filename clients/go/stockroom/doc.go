// Package stockroom is a Go client of the Stockroom API.
//
// The requests and types (api.gen.go) are generated from the service's OpenAPI document,
// server/openapi/openapi.yaml, by `make clients`; the rest is written by hand: the API key
// (WithAPIKey), typed errors (APIError, ExecutionError), helpers that start an execution
// and wait for it as the interface advises (Crawl, Extract, Search) and a verifier of
// webhook signatures (VerifyWebhook).
//
// A crawl, from start to end:
//
//	client, err := stockroom.NewClientWithResponses(baseURL, stockroom.WithAPIKey(key))
//	if err != nil {
//		return err
//	}
//	crawl, err := client.Crawl(ctx, "shop.example", stockroom.Waiting{})
//	if err != nil {
//		return err // an *APIError, an *ExecutionError, or ErrWaitTimeout
//	}
//	fmt.Println(crawl.Meta.Result.ListingsTotal)
//
// Every generated method answers the response with its body decoded for each documented
// status (JSON200, JSON404, ...); Answer returns the decoded body of a success, or the
// *APIError of any other answer:
//
//	resp, err := client.GetUsageV2WithResponse(ctx, nil)
//	if err != nil {
//		return err
//	}
//	usage, err := stockroom.Answer(resp.JSON200, resp.HTTPResponse, resp.Body)
package stockroom
