// Against a live service: STOCKROOM_URL and STOCKROOM_API_KEY name it, and
// STOCKROOM_DEMO_STORE_URL a demo store it may crawl with STOCKROOM_DEMO_STORE_PRODUCTS
// products. clients/typescript/live_test.go starts such a stack and runs these.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createStockroomClient, dataOf, ExecutionError, type Progress, StockroomError } from "../src/index.js";

const { STOCKROOM_URL, STOCKROOM_API_KEY, STOCKROOM_DEMO_STORE_URL, STOCKROOM_DEMO_STORE_PRODUCTS } = process.env;
const live = STOCKROOM_URL && STOCKROOM_API_KEY && STOCKROOM_DEMO_STORE_URL;
const skip = live ? false : "STOCKROOM_URL, STOCKROOM_API_KEY and STOCKROOM_DEMO_STORE_URL are not set";
const quick = { firstIntervalMs: 50, maxIntervalMs: 200, timeoutMs: 120_000 };

test("crawls, extracts and searches a store", { skip }, async () => {
  const client = createStockroomClient({ baseUrl: STOCKROOM_URL!, apiKey: STOCKROOM_API_KEY! });
  const products = Number(STOCKROOM_DEMO_STORE_PRODUCTS);
  const seen: Progress[] = [];
  const crawl = await client.crawl(STOCKROOM_DEMO_STORE_URL!, { ...quick, onProgress: (p) => seen.push(p) });
  assert.equal(crawl.status, "completed");
  assert.equal(crawl.meta.result?.listings_total, products);
  const last = seen.at(-1)!;
  assert.deepEqual(last.steps?.map((s) => s.name), ["Determining crawl method", "Discovering collections", "Analyzing collections", "Extracting listings"]);
  assert.equal(last.done, products);

  const extract = await client.extract({ vendor: crawl.meta.vendor! }, quick);
  assert.equal(extract.meta.result.products_successful, products);
  assert.equal(extract.data.length, products);

  const search = await client.search({ query: "shirt" }, quick);
  assert.equal(search.status, "completed");
  assert.equal(search.meta.query, "shirt");

  // Usage events reach ClickHouse in batches, a second or so after the call.
  const deadline = Date.now() + 10_000;
  let listed = false;
  while (!listed && Date.now() < deadline) {
    const usage = dataOf(await client.GET("/v2/usage", { params: { query: { period: "24h" } } }));
    listed = usage.data.some((item) => item.path === "/v2/crawl");
    if (!listed) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.ok(listed, "usage lists the crawl");
});

test("errors are typed", { skip }, async () => {
  const client = createStockroomClient({ baseUrl: STOCKROOM_URL!, apiKey: STOCKROOM_API_KEY! });
  await assert.rejects(client.waitCrawl("crawl-nowhere.example-0", quick), (err: unknown) => {
    assert.ok(err instanceof StockroomError);
    assert.equal(err.status, 404);
    assert.equal(err.code, "NOT_FOUND");
    assert.ok(err.requestId && err.message);
    return true;
  });

  const stranger = createStockroomClient({ baseUrl: STOCKROOM_URL!, apiKey: "srk_not-a-key" });
  await assert.rejects(stranger.extract({ urls: [STOCKROOM_DEMO_STORE_URL + "/products/x"] }, quick), (err: unknown) => {
    assert.ok(err instanceof StockroomError);
    assert.equal(err.status, 401);
    assert.equal(err.code, undefined);
    assert.equal(err.message, "Invalid API key");
    return true;
  });

  const started = dataOf(await client.POST("/v2/extract", { body: { urls: [STOCKROOM_DEMO_STORE_URL + "/products/x"] } }));
  const canceled = await client.DELETE("/v2/extract/{execution_id}", { params: { path: { execution_id: started.execution_id } } });
  if (canceled.response.status === 409) return; // it ended before the cancel
  await assert.rejects(client.waitExtract(started.execution_id, quick), ExecutionError);
});
