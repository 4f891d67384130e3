// Package webhook tells clients that an execution has ended, by an HTTP POST to a receiver
// they chose, signed as the Standard Webhooks specification says
// (https://www.standardwebhooks.com).
//
// A receiver is named in one of two ways: a start request carries a webhook for its own
// execution (execution.Webhook, made by Service.Subscription), or an organization registers
// an endpoint that hears of every execution it starts or joins (Service.Create). Either has
// its own secret, shown once.
//
// When an execution ends, storage records one delivery per receiver and queues a job for
// each, in the transaction that records the end, so that a restart loses none. The job
// sends the event with a Sender, and is retried on a Schedule until the receiver answers
// 2xx or the schedule runs out; every attempt is recorded and can be read back
// (Service.Deliveries).
//
// Verifying a delivery, on the receiving side:
//
//	signed := msgID + "." + timestamp + "." + body
//	mac := hmac.New(sha256.New, base64-decoded secret without its "whsec_" prefix)
//	"v1," + base64(mac.Sum(signed)) is one of the space-separated webhook-signature values
package webhook
