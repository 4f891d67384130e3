// Package metrics is Stockroom's Prometheus instrumentation: the metric families the
// service exports, the observers the API, the execution runner and the fetcher call, and
// the wrappers the composition root (cmd/stockroom/app) puts around the adapters, the
// fetcher and the job handlers. Nothing here is global: every family lives in the
// Registerer given to New, and Handler serves what a Gatherer holds.
//
// docs/METRICS.md lists the families; docs/grafana/stockroom.json is a dashboard over
// them.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// namespace prefixes every family the service defines.
const namespace = "stockroom"

// Metrics holds the service's metric families. Its methods are safe for concurrent use;
// a nil *Metrics records nothing, so that a service without metrics needs no checks.
type Metrics struct {
	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec

	executionsStarted  *prometheus.CounterVec
	executionsFinished *prometheus.CounterVec
	executionsRunning  *prometheus.GaugeVec

	jobDuration *prometheus.HistogramVec

	fetches         *prometheus.CounterVec
	fetchBytes      *prometheus.CounterVec
	fetchDuration   *prometheus.HistogramVec
	politenessWaits *prometheus.CounterVec
	politenessWait  *prometheus.CounterVec

	adapterCalls    *prometheus.CounterVec
	adapterDuration *prometheus.HistogramVec

	// all are the collectors New registered, these families and Go's and the process's.
	all []prometheus.Collector
}

// latencyBuckets suit calls from a millisecond to a minute: API requests, fetches and
// adapter calls.
var latencyBuckets = prometheus.ExponentialBuckets(0.001, 2.5, 13)

// jobBuckets suit executions, from a tenth of a second to a few hours.
var jobBuckets = prometheus.ExponentialBuckets(0.1, 3, 11)

// New registers the service's families, and Go's runtime and process collectors, in reg.
func New(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "http_requests_total",
			Help: "API requests answered, by route template, method and status."}, []string{"route", "method", "status"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "http_request_duration_seconds",
			Help: "Time to answer an API request, by route template and method.", Buckets: latencyBuckets}, []string{"route", "method"}),

		executionsStarted: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "executions_started_total",
			Help: "Executions a runner of this process started (or resumed), by kind."}, []string{"kind"}),
		executionsFinished: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "executions_finished_total",
			Help: "Executions a runner of this process ended, by kind and status (completed, failed, or stopped: canceled, taken over or interrupted by a shutdown)."},
			[]string{"kind", "status"}),
		executionsRunning: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: namespace, Name: "executions_running",
			Help: "Executions running in this process, by kind."}, []string{"kind"}),

		jobDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "job_duration_seconds",
			Help: "Time a queue job took to run, by kind.", Buckets: jobBuckets}, []string{"kind"}),

		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "fetches_total",
			Help: "Documents fetched for the adapters, by outcome (ok, client_error, server_error, failed, canceled) and host class (polite, or no_delay for fetch.no_delay_hosts)."},
			[]string{"outcome", "host_class"}),
		fetchBytes: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "fetch_body_bytes_total",
			Help: "Body bytes fetched (decompressed), by host class."}, []string{"host_class"}),
		fetchDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "fetch_duration_seconds",
			Help: "Time to fetch a document, politeness waits and retries included, by host class.", Buckets: latencyBuckets}, []string{"host_class"}),
		politenessWaits: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "fetch_politeness_waits_total",
			Help: "Requests that waited for a host's politeness (its delay, Crawl-delay or Retry-After), by host class."}, []string{"host_class"}),
		politenessWait: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "fetch_politeness_wait_seconds_total",
			Help: "Time requests waited for hosts' politeness, by host class."}, []string{"host_class"}),

		adapterCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "adapter_calls_total",
			Help: "Adapter calls, by adapter, operation and result (ok, error: the adapter's own answer, trap, timeout, canceled)."},
			[]string{"adapter", "op", "result"}),
		adapterDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "adapter_call_duration_seconds",
			Help: "Time of one adapter call, by adapter and operation.", Buckets: latencyBuckets}, []string{"adapter", "op"}),
	}
	m.all = []prometheus.Collector{
		m.httpRequests, m.httpDuration,
		m.executionsStarted, m.executionsFinished, m.executionsRunning, m.jobDuration,
		m.fetches, m.fetchBytes, m.fetchDuration, m.politenessWaits, m.politenessWait,
		m.adapterCalls, m.adapterDuration,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	}
	for _, c := range m.all {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Handler serves what g holds in the Prometheus exposition formats.
func Handler(g prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{})
}

// ObserveRequest counts one answered API request. route is the route template (or
// "(unmatched)"); method is copied into a constant, since the API's request strings are
// reused once the request is answered.
func (m *Metrics) ObserveRequest(method, route string, status int, elapsed time.Duration) {
	if m == nil {
		return
	}
	method = knownMethod(method)
	m.httpRequests.WithLabelValues(route, method, statusText(status)).Inc()
	m.httpDuration.WithLabelValues(route, method).Observe(elapsed.Seconds())
}

// ExecutionStarted counts an execution of kind that a runner started.
func (m *Metrics) ExecutionStarted(kind string) {
	if m == nil {
		return
	}
	m.executionsStarted.WithLabelValues(kind).Inc()
	m.executionsRunning.WithLabelValues(kind).Inc()
}

// ExecutionFinished counts an execution of kind that a runner ended with status.
func (m *Metrics) ExecutionFinished(kind, status string) {
	if m == nil {
		return
	}
	m.executionsFinished.WithLabelValues(kind, status).Inc()
	m.executionsRunning.WithLabelValues(kind).Dec()
}

// knownMethod returns method as one of the constant names of HTTP methods, or "other".
func knownMethod(method string) string {
	for _, known := range []string{http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodPut,
		http.MethodPatch, http.MethodHead, http.MethodOptions} {
		if method == known {
			return known
		}
	}
	return "other"
}

// statusTexts are the label values of the HTTP statuses, made once so that counting a
// request allocates none. It is never written after package initialization.
var statusTexts = func() map[int]string {
	out := map[int]string{}
	for status := 100; status < 600; status++ {
		out[status] = strconv.Itoa(status)
	}
	return out
}()

// statusText is status as a label value.
func statusText(status int) string {
	if s, ok := statusTexts[status]; ok {
		return s
	}
	return "other"
}
