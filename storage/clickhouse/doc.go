// Package clickhouse meters API usage into ClickHouse: it records usage.Events and answers
// usage.Reader questions from an hourly rollup.
//
// A tour, in the order a server wires it:
//
//	conn, err := clickhouse.Open(ctx, cfg.ClickHouseURL) // no dial yet; timeouts bounded
//	err = clickhouse.Migrate(ctx, conn)                   // usage_events, usage_hourly and its view
//	rec, err := clickhouse.NewRecorder(conn, clickhouse.RecorderOptions{
//		SpoolDir: "/var/lib/stockroom/usage-spool",
//		Logger:   logger,
//	})
//	rec.Record(usage.Event{...})   // never blocks, whatever ClickHouse is doing
//	rec.Stats()                    // queued, spooled, delivered, dropped: for /healthz and logs
//	rec.Close(ctx)                 // flushes what is queued; the spool keeps the rest
//
//	reader := clickhouse.NewReader(conn) // a usage.Reader over the rollup
//
// Events flow Record -> channel -> batch (at BatchSize events or every FlushInterval) ->
// INSERT into usage_events -> materialized view -> usage_hourly. A batch that cannot be
// inserted is written to an on-disk spool and delivered, in order and with backoff, once
// ClickHouse answers again. Every batch carries an id so that a redelivered batch is
// recognised and counted once. RATIONALE.md says why each of these choices was made;
// README.md describes the tables for analysts.
package clickhouse
