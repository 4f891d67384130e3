// Package bench compares Stockroom with peer tools on the same work, side by side in one
// run. It is its own module so that peers (Colly) never enter the service's dependencies.
//
//	make bench        # runs these too, against the local databases
//	make build && cd bench && ../bin/stockroom local exec --data ../.data/bench -- \
//		go test -run '^$' -bench Crawl -benchtime 1x -count 3 ./...
//
// Each benchmark runs its whole job once per iteration; run them with -benchtime 1x.
// STOCKROOM_BIN names another stockroom binary to measure (an A/B of two builds). In an
// A/B, alternate which build runs first in a round: the second run of a round fares
// worse on this kind of machine. A change measured 0.91 -> 1.01 (html-20ms CPU per page
// against Colly) with the new build run second measured 0.94 -> 0.91 with it run first.
//
// BenchmarkCrawl gives each crawler the same store (its own process, not counted), the
// same concurrency and no delay; each store is crawled answering at once and answering
// 20 ms late (the -20ms lines). pages is the requests the store answered, max-in-flight
// the most it answered at once (checked against the concurrency); wall-s runs from the
// start request to the end (Colly's Wait, Stockroom's execution stop_date); cpu-s/1000pages
// is the crawler's own process, which is what the bar compares: the Stockroom server (API,
// job queue, adapters, fetcher, pgx), started for the crawl, or Colly's, this test binary
// run again for the one crawl (both counted from just before the crawl; peak-MiB and
// faults/page are each crawl's process too). db-cpu-s/1000pages is
// the Postgres server during Stockroom's crawl (the catalog writes; Colly keeps nothing),
// reported apart. store-cpu-s/1000pages is the store's process, serving the pages (the
// same pages for both crawlers, on the same cores); busy-cores is the CPU of the crawler,
// Postgres and the store together over the wall time: near the machine's count, the crawl
// is waiting for CPU. start-ms is how long Stockroom's crawl took to begin running after
// its start request (the request, the job queue's pickup, the lease), a fixed cost inside
// its wall time. ClickHouse (usage events of the status polls) is not counted. After
// each store's crawls a line states the ratios (pages/s, the whole job's wall time, CPU
// per page without and with Postgres and with the store too, peak memory), the cores
// each crawl kept busy, and whether the bar is met; the crawlers' pages differ a little
// (Colly asks each collection for one empty page more, Stockroom reads robots.txt and the
// sitemaps), hence the wall time of the same job beside pages/s. With -count N, Go runs
// each side's N crawls in a row and the line compares their medians. make bench runs
// rounds instead (BENCH_CRAWLS, 5 by default): the test binary N times with -count 1,
// BENCH_ROUNDS=N and BENCH_ROUNDS_FILE naming a file that keeps the rounds' crawls; each
// round crawls every store with both crawlers, Colly first in every other round, and the
// last round's lines compare the medians of all N. A store's two crawls are then seconds
// apart rather than minutes, which on a machine whose speed drifts is the difference
// between a line that says "not met" and one that says "met" for the same build.
package bench
