/**
 * A TypeScript client of the Stockroom API.
 *
 * The types (schema.gen.ts) are generated from the service's OpenAPI document by
 * `make clients`, and requests go through openapi-fetch, so every path, parameter and
 * body is checked by the compiler. Written by hand: typed errors (StockroomError,
 * ExecutionError, WaitTimeoutError), helpers that start an execution and wait for it as
 * the interface advises (crawl, extract, search) and a webhook signature verifier.
 *
 * ```ts
 * const client = createStockroomClient({ baseUrl, apiKey });
 * const crawl = await client.crawl("shop.example");
 * console.log(crawl.meta.result?.listings_total);
 * ```
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.gen.js";
import { StockroomError } from "./errors.js";
import { type Progress, type Waiting, waitFor } from "./wait.js";

export type { components, paths, operations } from "./schema.gen.js";
export { ExecutionError, StockroomError, WaitTimeoutError, type ErrorCode } from "./errors.js";
export { pauses, waitFor, type Progress, type Waiting } from "./wait.js";
export { verifyWebhook, WebhookVerificationError, WEBHOOK_TOLERANCE_SECONDS } from "./webhook.js";

export type Schemas = components["schemas"];
export type CrawlExecution = Schemas["CrawlExecution"];
export type ExtractExecution = Schemas["ExtractExecution"];
export type ExtractRequest = Schemas["ExtractRequest"];
export type SearchExecution = Schemas["SearchExecution"];
export type SearchRequest = Schemas["SearchRequest"];

export interface ClientOptions {
  /** The service's base URL, such as "http://127.0.0.1:8080". */
  baseUrl: string;
  /** An API key, sent in the x-api-key header. */
  apiKey: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** The client: openapi-fetch's typed GET, POST and DELETE, plus the waiting helpers. */
export interface StockroomClient extends Client<paths> {
  /** Starts a crawl of url (a URL or a hostname) and waits for it to end. */
  crawl(url: string, waiting?: Waiting): Promise<CrawlExecution>;
  /** Waits for the crawl id to end and returns its last status. */
  waitCrawl(id: string, waiting?: Waiting): Promise<CrawlExecution>;
  /** Starts an extraction and waits for it; the result holds the first 100 products. */
  extract(request: ExtractRequest, waiting?: Waiting): Promise<ExtractExecution>;
  /** Waits for the extraction id to end; the result holds the first 100 products. */
  waitExtract(id: string, waiting?: Waiting): Promise<ExtractExecution>;
  /** Starts an agentic search and waits for it; the result holds the first 100 results. */
  search(request: SearchRequest, waiting?: Waiting): Promise<SearchExecution>;
  /** Waits for the agentic search id to end; the result holds the first 100 results. */
  waitSearch(id: string, waiting?: Waiting): Promise<SearchExecution>;
}

/** What every openapi-fetch call answers. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; a StockroomError for any other. */
export function dataOf<T>(answer: Answer<T>): T {
  if (!answer.response.ok || answer.data === undefined) {
    throw StockroomError.from(answer.response, answer.error);
  }
  return answer.data;
}

export function createStockroomClient(options: ClientOptions): StockroomClient {
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { "x-api-key": options.apiKey },
    fetch: options.fetch,
  });
  const pageSize = 100;

  const waitCrawl = (id: string, waiting: Waiting = {}) =>
    waitFor(id, waiting, async (): Promise<[CrawlExecution, Progress]> => {
      const crawl = dataOf(await api.GET("/v2/crawl/{execution_id}", { params: { path: { execution_id: id } } }));
      const done = crawl.meta.result?.listings_total ?? crawl.meta.progress?.listings_found ?? 0;
      return [crawl, { executionId: id, status: crawl.status, steps: crawl.meta.steps, done, total: 0, unit: "listings", error: crawl.error }];
    });

  const waitExtract = (id: string, waiting: Waiting = {}) =>
    waitFor(id, waiting, async (): Promise<[ExtractExecution, Progress]> => {
      const extract = dataOf(
        await api.GET("/v2/extract/{execution_id}", { params: { path: { execution_id: id }, query: { page_size: pageSize } } }),
      );
      const { products_processed, products_total } = extract.meta.progress;
      return [extract, { executionId: id, status: extract.status, done: products_processed, total: products_total, unit: "products", error: extract.error }];
    });

  const waitSearch = (id: string, waiting: Waiting = {}) =>
    waitFor(id, waiting, async (): Promise<[SearchExecution, Progress]> => {
      const search = dataOf(
        await api.GET("/v2/agentic-search/{execution_id}", { params: { path: { execution_id: id }, query: { page_size: pageSize } } }),
      );
      const done = search.meta.result?.products_total ?? search.meta.progress?.products_ranked ?? 0;
      const total = search.meta.result ? 0 : search.meta.progress?.candidates_found ?? 0;
      return [search, { executionId: id, status: search.status, steps: search.meta.steps, done, total, unit: "products", error: search.error }];
    });

  return Object.assign(api, {
    waitCrawl,
    waitExtract,
    waitSearch,
    async crawl(url: string, waiting?: Waiting) {
      const started = dataOf(await api.POST("/v2/crawl", { body: { url } }));
      return waitCrawl(started.execution_id, waiting);
    },
    async extract(request: ExtractRequest, waiting?: Waiting) {
      const started = dataOf(await api.POST("/v2/extract", { body: request }));
      return waitExtract(started.execution_id, waiting);
    },
    async search(request: SearchRequest, waiting?: Waiting) {
      const started = dataOf(await api.POST("/v2/agentic-search", { body: request }));
      return waitSearch(started.execution_id, waiting);
    },
  });
}
