package metrics

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/stockroom/stockroom/storage/clickhouse"
	"github.com/stockroom/stockroom/storage/jobs"
)

// scrapeTimeout bounds the queries a scrape makes (the queue's depth).
const scrapeTimeout = 2 * time.Second

// desc names one family read at scrape time.
func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(namespace, "", name), help, labels, nil)
}

// Sources are what the families read at scrape time come from. A nil field leaves its
// families out.
type Sources struct {
	// Queue is the job queue, whose depth is counted. Queues are its queues' names, each
	// reported in every state, zero included, so that a dashboard shows an empty queue.
	Queue  *jobs.Queue
	Queues []string
	// Pool is the Postgres pool.
	Pool *pgxpool.Pool
	// Usage is the usage recorder's snapshot (clickhouse.Recorder.Stats).
	Usage  func() clickhouse.Stats
	Logger *slog.Logger
}

// RegisterSources registers the families read from src at scrape time in reg.
func RegisterSources(reg prometheus.Registerer, src Sources) error {
	if src.Logger == nil {
		src.Logger = slog.Default()
	}
	return reg.Register(&sourceCollector{src: src})
}

var (
	queueDepth = desc("queue_jobs", "Jobs of the River queue not finished yet, by queue (one per execution kind) and state.", "queue", "state")

	poolAcquired     = desc("postgres_pool_acquired_connections", "Postgres connections in use.")
	poolIdle         = desc("postgres_pool_idle_connections", "Postgres connections idle in the pool.")
	poolTotal        = desc("postgres_pool_total_connections", "Postgres connections open (in use, idle or being opened).")
	poolMax          = desc("postgres_pool_max_connections", "The pool's largest number of connections (database.max_conns).")
	poolAcquires     = desc("postgres_pool_acquires_total", "Connections taken from the pool.")
	poolEmptyAcquire = desc("postgres_pool_empty_acquires_total", "Connections taken after waiting, the pool being empty.")
	poolAcquireWait  = desc("postgres_pool_acquire_wait_seconds_total", "Time spent waiting for a connection.")

	usageQueued    = desc("usage_events_queued", "Usage events in memory, waiting to be sent to ClickHouse.")
	usageSpooled   = desc("usage_events_spooled", "Usage events in the on-disk spool, waiting for ClickHouse.")
	usageDelivered = desc("usage_events_delivered_total", "Usage events delivered to ClickHouse since the process started.")
	usageDropped   = desc("usage_events_dropped_total", "Usage events lost (queue or spool full).")
	usageLag       = desc("usage_delivery_lag_seconds", "How old the oldest event of the last batch delivered to ClickHouse was when it arrived; 0 before the first delivery.")
	usageFailing   = desc("usage_delivery_failing", "1 while the last attempt to reach ClickHouse failed.")
)

// sourceCollector reads the queue, the pool and the usage recorder at each scrape.
type sourceCollector struct{ src Sources }

func (c *sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	if c.src.Queue != nil {
		ch <- queueDepth
	}
	if c.src.Pool != nil {
		for _, d := range []*prometheus.Desc{poolAcquired, poolIdle, poolTotal, poolMax, poolAcquires, poolEmptyAcquire, poolAcquireWait} {
			ch <- d
		}
	}
	if c.src.Usage != nil {
		for _, d := range []*prometheus.Desc{usageQueued, usageSpooled, usageDelivered, usageDropped, usageLag, usageFailing} {
			ch <- d
		}
	}
}

func (c *sourceCollector) Collect(ch chan<- prometheus.Metric) {
	if q := c.src.Queue; q != nil {
		ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
		counts, err := q.Depth(ctx)
		cancel()
		if err != nil {
			c.src.Logger.Warn("metrics: queue depth", "err", err)
			ch <- prometheus.NewInvalidMetric(queueDepth, err)
		}
		type key struct{ queue, state string }
		depth := map[key]int{}
		for _, name := range c.src.Queues {
			for _, state := range jobs.UnfinishedStates {
				depth[key{name, state}] = 0
			}
		}
		for _, n := range counts {
			depth[key{n.Queue, n.State}] = n.Jobs
		}
		for k, n := range depth {
			ch <- prometheus.MustNewConstMetric(queueDepth, prometheus.GaugeValue, float64(n), k.queue, k.state)
		}
	}
	if p := c.src.Pool; p != nil {
		st := p.Stat()
		gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
		counter := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
		}
		gauge(poolAcquired, float64(st.AcquiredConns()))
		gauge(poolIdle, float64(st.IdleConns()))
		gauge(poolTotal, float64(st.TotalConns()))
		gauge(poolMax, float64(st.MaxConns()))
		counter(poolAcquires, float64(st.AcquireCount()))
		counter(poolEmptyAcquire, float64(st.EmptyAcquireCount()))
		counter(poolAcquireWait, st.AcquireDuration().Seconds())
	}
	if c.src.Usage != nil {
		st := c.src.Usage()
		gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
		counter := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
		}
		gauge(usageQueued, float64(st.Queued))
		gauge(usageSpooled, float64(st.SpooledEvents))
		counter(usageDelivered, float64(st.Delivered))
		counter(usageDropped, float64(st.Dropped))
		gauge(usageLag, st.DeliveryLagSeconds)
		failing := 0.0
		if st.Failing {
			failing = 1
		}
		gauge(usageFailing, failing)
	}
}
