// Typed errors of the Stockroom client.

/** The documented error codes (every error but a 401). */
export type ErrorCode =
  import("./schema.gen.js").components["schemas"]["ErrorCode"];

/**
 * An answer of the service that is not a success. Every error but a 401 carries the
 * documented body `{"error": {"code", "message", "request_id"}}`; a 401 carries
 * `{"error", "status"}`, read here as its message with no code.
 */
export class StockroomError extends Error {
  /** The HTTP status, such as 404. */
  readonly status: number;
  /** The error's code; undefined for a 401 and for a body of another shape. */
  readonly code?: ErrorCode;
  /** The request's id, from the body or else the Request-ID header. */
  readonly requestId?: string;
  /** How long a 429 asks to wait, in milliseconds; 0 when it does not say. */
  readonly retryAfterMs: number;

  constructor(init: { status: number; code?: ErrorCode; message: string; requestId?: string; retryAfterMs?: number }) {
    super(init.message);
    this.name = "StockroomError";
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs ?? 0;
  }

  /** Whether the same request may succeed later (429, 5xx). */
  get temporary(): boolean {
    return this.status === 429 || this.status >= 500;
  }

  /** Reads the error of a response that is not a success, given its decoded body. */
  static from(response: Response, body: unknown): StockroomError {
    const seconds = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    const base = {
      status: response.status,
      requestId: response.headers.get("Request-ID") ?? undefined,
      retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : 0,
    };
    const error = (body as { error?: unknown } | undefined)?.error;
    if (typeof error === "object" && error !== null && "code" in error) {
      const documented = error as { code: ErrorCode; message?: string; request_id?: string };
      return new StockroomError({
        ...base,
        code: documented.code,
        message: documented.message ?? response.statusText,
        requestId: documented.request_id || base.requestId,
      });
    }
    if (typeof error === "string") {
      return new StockroomError({ ...base, message: error });
    }
    return new StockroomError({ ...base, message: response.statusText || `HTTP ${response.status}` });
  }
}

/** An execution that ended failed (a canceled one reads as failed with "canceled"). */
export class ExecutionError extends Error {
  readonly executionId: string;
  constructor(executionId: string, message: string) {
    super(`execution ${executionId} failed: ${message}`);
    this.name = "ExecutionError";
    this.executionId = executionId;
  }
}

/** An execution still running at the end of the wait's timeout. */
export class WaitTimeoutError extends Error {
  readonly executionId: string;
  constructor(executionId: string, timeoutMs: number) {
    super(`execution ${executionId} still running after ${timeoutMs} ms`);
    this.name = "WaitTimeoutError";
    this.executionId = executionId;
  }
}
