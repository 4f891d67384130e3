// Verifying webhook signatures as the Standard Webhooks specification says.

/** How far a webhook's timestamp may be from the receiver's clock, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/** Why verifyWebhook refused a delivery. */
export class WebhookVerificationError extends Error {
  readonly reason: "headers" | "timestamp" | "signature";
  constructor(reason: "headers" | "timestamp" | "signature", message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

/**
 * Checks that a webhook delivery was signed with secret (the endpoint's `whsec_...`
 * secret): the `webhook-signature` header holds one or more `v1,BASE64` signatures, each
 * an HMAC-SHA256, keyed with the secret's decoded bytes, of `webhook-id`,
 * `webhook-timestamp` and the raw body joined by dots; and the timestamp is within
 * WEBHOOK_TOLERANCE_SECONDS of now. Pass the body exactly as it arrived. Resolves when
 * the delivery is genuine, rejects with a WebhookVerificationError otherwise.
 */
export async function verifyWebhook(
  secret: string,
  headers: Headers | Record<string, string | undefined>,
  body: string | Uint8Array,
  now: Date = new Date(),
): Promise<void> {
  const header = (name: string) =>
    headers instanceof Headers ? headers.get(name) ?? undefined : headers[name] ?? headers[name.toLowerCase()];
  const id = header("webhook-id");
  const timestamp = header("webhook-timestamp");
  const signatures = header("webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("headers", "need webhook-id, webhook-timestamp and webhook-signature");
  }
  if (!/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError("headers", `webhook-timestamp ${JSON.stringify(timestamp)} is not a number of seconds`);
  }
  const skew = now.getTime() / 1000 - Number(timestamp);
  if (Math.abs(skew) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError("timestamp", `webhook timestamp ${Math.round(skew)} s from now`);
  }
  const keyBytes = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const bodyBytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix);
  signed.set(bodyBytes, prefix.length);
  for (const signature of signatures.split(" ")) {
    const [version, encoded] = signature.split(",", 2);
    if (version !== "v1" || !encoded) continue;
    // crypto.subtle.verify compares in constant time.
    if (await crypto.subtle.verify("HMAC", key, Buffer.from(encoded, "base64"), signed)) return;
  }
  throw new WebhookVerificationError("signature", "no webhook signature matches");
}
