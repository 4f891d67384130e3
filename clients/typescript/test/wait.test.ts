import assert from "node:assert/strict";
import { test } from "node:test";
import { ExecutionError, pauses, type Progress, StockroomError, waitFor, WaitTimeoutError } from "../src/index.js";

test("pauses grow by half from 10 s to 30 s", () => {
  const got: number[] = [];
  for (const pause of pauses()) {
    got.push(pause);
    if (got.length === 6) break;
  }
  assert.deepEqual(got, [10_000, 15_000, 22_500, 30_000, 30_000, 30_000]);
});

const fast = { firstIntervalMs: 20, maxIntervalMs: 40, timeoutMs: 5_000 };

/** A read that answers the statuses in turn (errors thrown), then the last forever. */
function reads(answers: (Partial<Progress> | Error)[]) {
  const calls: number[] = [];
  const read = async (): Promise<[Progress, Progress]> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)];
    calls.push(Date.now());
    if (answer instanceof Error) throw answer;
    const progress: Progress = { executionId: "x", status: "running", done: 0, total: 0, unit: "products", ...answer };
    return [progress, progress];
  };
  return { read, calls };
}

test("polls at once, then until the execution ends", async () => {
  const { read, calls } = reads([{ status: "pending" }, { status: "running", done: 3 }, { status: "completed", done: 7 }]);
  const seen: Progress[] = [];
  const last = await waitFor("x", { ...fast, onProgress: (p) => seen.push(p) }, read);
  assert.equal(last.done, 7);
  assert.equal(seen.length, 3);
  assert.ok(calls[1] - calls[0] >= 19, "the second poll waits the first interval");
  assert.ok(calls[2] - calls[1] >= 29, "the pause grows");
});

test("the first poll is made at once", async () => {
  const { read } = reads([{ status: "completed" }]);
  const start = Date.now();
  await waitFor("x", { firstIntervalMs: 10_000 }, read);
  assert.ok(Date.now() - start < 5_000, "the wait did not pause before its first poll");
});

test("a failed execution is an ExecutionError", async () => {
  const { read } = reads([{ status: "failed", error: "canceled" }]);
  await assert.rejects(waitFor("crawl-x", fast, read), (err: unknown) => {
    assert.ok(err instanceof ExecutionError);
    assert.equal(err.executionId, "crawl-x");
    assert.match(err.message, /canceled/);
    return true;
  });
});

test("the wait ends at its deadline", async () => {
  const { read } = reads([{ status: "running" }]);
  await assert.rejects(waitFor("x", { ...fast, timeoutMs: 100 }, read), WaitTimeoutError);
});

test("a temporary error is polled again, after its Retry-After", async () => {
  const { read, calls } = reads([
    new StockroomError({ status: 503, message: "down" }),
    new StockroomError({ status: 429, message: "slow down", retryAfterMs: 60 }),
    { status: "completed" },
  ]);
  await waitFor("x", fast, read);
  assert.equal(calls.length, 3);
  assert.ok(calls[2] - calls[1] >= 59, "the 429's Retry-After is honoured");
});

test("an error that will not pass ends the wait", async () => {
  const notFound = new StockroomError({ status: 404, code: "NOT_FOUND", message: "no such execution" });
  const { read, calls } = reads([notFound]);
  await assert.rejects(waitFor("x", fast, read), (err) => err === notFound);
  assert.equal(calls.length, 1);
});

test("an abort signal ends the wait", async () => {
  const { read } = reads([{ status: "running" }]);
  await assert.rejects(waitFor("x", { ...fast, signal: AbortSignal.timeout(60) }, read), { name: "TimeoutError" });
});
