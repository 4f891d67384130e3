// Package bench compares Stockroom with peer tools on the same work, side by side in one
// run. It is its own module so that peers (Colly) never enter the service's dependencies.
//
//	make bench        # runs these too, against the local databases
//	make build && cd bench && ../bin/stockroom local exec --data ../.data/bench -- \
//		go test -run '^$' -bench Crawl -benchtime 1x -count 3 ./...
//
// Each benchmark runs its whole job once per iteration; run them with -benchtime 1x.
// STOCKROOM_BIN names another stockroom binary to measure (an A/B of two builds); alternate
// which build runs first in a round, because a round's second run fares worse.
//
// BenchmarkCrawl crawls the demo stores with Stockroom and with Colly at the same
// concurrency, and after each store's crawls prints a line that compares them against the
// bar. BenchmarkListPage measures the adapters' share of one crawl page. README.md
// explains every figure the benchmarks report, why make bench runs them in interleaved
// rounds, and what past runs showed.
package bench
