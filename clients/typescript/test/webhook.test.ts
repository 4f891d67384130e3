import assert from "node:assert/strict";
import { test } from "node:test";
import { verifyWebhook, WEBHOOK_TOLERANCE_SECONDS, WebhookVerificationError } from "../src/index.js";

// The example of the Standard Webhooks specification: its secret, message and signature.
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const timestamp = "1614265330";
const body = '{"test": 2432232314}';
const signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
const at = new Date(1614265330 * 1000);

const headers = (overrides: Record<string, string> = {}) => ({
  "webhook-id": id,
  "webhook-timestamp": timestamp,
  "webhook-signature": signature,
  ...overrides,
});

test("the specification's example verifies", async () => {
  await verifyWebhook(secret, headers(), body, at);
  await verifyWebhook(secret, new Headers(headers()), new TextEncoder().encode(body), at);
});

test("one of several signatures is enough", async () => {
  await verifyWebhook(secret, headers({ "webhook-signature": `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${signature}` }), body, at);
});

const refusals: [string, Record<string, string>, string, Date, string][] = [
  ["a changed body", {}, '{"test": 2432232315}', at, "signature"],
  ["a changed id", { "webhook-id": "msg_other" }, body, at, "signature"],
  ["another version's signature", { "webhook-signature": "v1a," + signature.slice(3) }, body, at, "signature"],
  ["a timestamp too old", {}, body, new Date(at.getTime() + (WEBHOOK_TOLERANCE_SECONDS + 1) * 1000), "timestamp"],
  ["a timestamp too new", {}, body, new Date(at.getTime() - (WEBHOOK_TOLERANCE_SECONDS + 1) * 1000), "timestamp"],
  ["no signature", { "webhook-signature": "" }, body, at, "headers"],
  ["a timestamp that is not a number", { "webhook-timestamp": "yesterday" }, body, at, "headers"],
];

for (const [name, overrides, payload, now, reason] of refusals) {
  test(`refuses ${name}`, async () => {
    await assert.rejects(verifyWebhook(secret, headers(overrides), payload, now), (err: unknown) => {
      assert.ok(err instanceof WebhookVerificationError);
      assert.equal(err.reason, reason);
      return true;
    });
  });
}

test("refuses another endpoint's secret", async () => {
  await assert.rejects(verifyWebhook("whsec_c2VjcmV0IG9mIGFub3RoZXIgZW5kcG9pbnQ=", headers(), body, at), WebhookVerificationError);
});
