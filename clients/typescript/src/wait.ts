// Waiting for an execution as the interface advises: poll at once, then at growing
// intervals from 10 to 30 seconds, with a deadline.
import { ExecutionError, StockroomError, WaitTimeoutError } from "./errors.js";

/** How the helpers wait. Every field is optional; the defaults are the interface's advice. */
export interface Waiting {
  /** Pause after the first poll, which is made at once; each next pause is half as long again. Default 10 000 ms. */
  firstIntervalMs?: number;
  /** Longest pause between two polls. Default 30 000 ms. */
  maxIntervalMs?: number;
  /** Longest wait; past it a WaitTimeoutError, and the execution goes on. Default one hour. */
  timeoutMs?: number;
  /** Called with every status read, the last one included. */
  onProgress?: (progress: Progress) => void;
  /** Ends the wait early. */
  signal?: AbortSignal;
}

/** One status read of an execution, the same for every kind. */
export interface Progress {
  executionId: string;
  status: "pending" | "running" | "completed" | "failed";
  /** Named steps in order (crawls and searches); absent for extractions. */
  steps?: { name: string; status: string }[];
  /** Units of work done so far, and those to do (0 when not known in advance). */
  done: number;
  total: number;
  unit: "listings" | "products";
  /** The execution's error when it failed. */
  error?: string | null;
}

/** The pauses between polls, in milliseconds: firstIntervalMs, growing by half, up to maxIntervalMs. */
export function* pauses(waiting: Waiting = {}): Generator<number> {
  const max = Math.max(waiting.maxIntervalMs ?? 30_000, waiting.firstIntervalMs ?? 10_000);
  let interval = waiting.firstIntervalMs ?? 10_000;
  for (;;) {
    yield interval;
    interval = Math.min(interval * 1.5, max);
  }
}

/**
 * Polls read until the execution has ended and returns its last status; throws an
 * ExecutionError when it failed. A poll answered with a temporary error (429, 5xx) is
 * made again at the next interval; any other error ends the wait.
 */
export async function waitFor<T>(
  executionId: string,
  waiting: Waiting,
  read: () => Promise<[T, Progress]>,
): Promise<T> {
  const timeoutMs = waiting.timeoutMs ?? 3_600_000;
  const deadline = Date.now() + timeoutMs;
  const intervals = pauses(waiting);
  for (;;) {
    let pause = intervals.next().value as number;
    try {
      const [status, progress] = await read();
      waiting.onProgress?.(progress);
      if (progress.status === "completed") return status;
      if (progress.status === "failed") throw new ExecutionError(executionId, progress.error ?? "failed");
    } catch (err) {
      if (!(err instanceof StockroomError && err.temporary)) throw err;
      pause = Math.max(pause, err.retryAfterMs);
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(executionId, timeoutMs);
    await sleep(Math.min(pause, left), waiting.signal);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}
