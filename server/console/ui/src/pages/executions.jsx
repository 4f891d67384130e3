// Executions: crawls, extractions and searches, newest first; forms to start a crawl or an
// extraction; a detail page with live steps and progress, and cancel.
import { useState } from 'preact/hooks';
import { get, post, del, query } from '../api.js';
import { dateTime, duration, number } from '../format.js';
import { ErrorBox, Loading, Empty, ProgressBar, StatusBadge, useLoad } from '../ui.jsx';

// kinds maps the console's name of an execution kind to its API path and label.
const kinds = {
  crawl: { path: '/v2/crawl', label: 'Crawl' },
  extract: { path: '/v2/extract', label: 'Extraction' },
  search: { path: '/v2/agentic-search', label: 'Search' },
};
const statuses = ['', 'processing', 'completed', 'failed'];
const polling = 1000;
const isEnded = (status) => status === 'completed' || status === 'failed';

export function Executions({ status }) {
  const list = useLoad(async (signal) => {
    const lists = await Promise.all(Object.entries(kinds).map(async ([kind, k]) => {
      const body = await get(`${k.path}${query({ status, page_size: 50 })}`, { signal });
      return body.data.map((e) => ({ ...e, kind }));
    }));
    return lists.flat().sort((a, b) => b.created_at.localeCompare(a.created_at));
  }, [status], { every: 3000, keepPolling: (rows) => rows.some((e) => e.status === 'processing') });
  return (
    <>
      <h1>Executions</h1>
      <StartForm />
      <section aria-labelledby="list-h">
        <div class="row">
          <h2 id="list-h">All executions</h2>
          <label class="inline">Status{' '}
            <select value={status} onChange={(e) => { location.hash = `#/executions${query({ status: e.currentTarget.value })}`; }}>
              {statuses.map((s) => <option value={s}>{s || 'any'}</option>)}
            </select>
          </label>
        </div>
        {list.loading && !list.data && <Loading what="Loading executions" />}
        <ErrorBox error={list.error} retry={list.reload} />
        {list.data && (list.data.length === 0 ? <Empty>No executions{status ? ` with status ${status}` : ''} yet. Start a crawl above.</Empty> : (
          <ul class="list" data-testid="executions">
            {list.data.map((e) => (
              <li>
                <a href={`#/executions/${e.kind}/${encodeURIComponent(e.execution_id)}`}>
                  <span class="kind">{kinds[e.kind].label}</span> <code class="id">{e.execution_id}</code>
                </a>
                <StatusBadge status={e.status} /> <time datetime={e.created_at}>{dateTime(e.created_at)}</time>
              </li>
            ))}
          </ul>
        ))}
      </section>
    </>
  );
}

function StartForm() {
  const [kind, setKind] = useState('crawl');
  const [url, setURL] = useState('');
  const [vendor, setVendor] = useState('');
  const [urls, setURLs] = useState('');
  const [maxProducts, setMaxProducts] = useState('');
  const [enrich, setEnrich] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      let started;
      if (kind === 'crawl') {
        started = await post('/v2/crawl', { url: url.trim() });
      } else {
        const list = urls.split('\n').map((u) => u.trim()).filter(Boolean);
        const body = list.length ? { urls: list } : { vendor: vendor.trim() };
        if (!list.length && maxProducts) body.max_products = Number(maxProducts);
        body.enable_enrichment = enrich;
        started = await post('/v2/extract', body);
      }
      location.hash = `#/executions/${kind}/${encodeURIComponent(started.execution_id)}`;
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="start-h" class="panel">
      <h2 id="start-h">Start</h2>
      <form onSubmit={submit} class="form">
        <fieldset>
          <legend>Kind</legend>
          <label class="inline"><input type="radio" name="kind" value="crawl" checked={kind === 'crawl'} onChange={() => setKind('crawl')} /> Crawl a store</label>
          <label class="inline"><input type="radio" name="kind" value="extract" checked={kind === 'extract'} onChange={() => setKind('extract')} /> Extract products</label>
        </fieldset>
        {kind === 'crawl' ? (
          <label>Store URL or domain
            <input name="url" type="text" inputMode="url" required value={url} onInput={(e) => setURL(e.currentTarget.value)} placeholder="shop.example.com" />
          </label>
        ) : (
          <>
            <label>Vendor (every listing of a crawled store)
              <input name="vendor" type="text" value={vendor} onInput={(e) => setVendor(e.currentTarget.value)} placeholder="shop.example.com" />
            </label>
            <label>Or product URLs, one a line
              <textarea name="urls" rows="3" value={urls} onInput={(e) => setURLs(e.currentTarget.value)} />
            </label>
            <label>At most this many products (vendor only)
              <input name="max_products" type="number" min="1" value={maxProducts} onInput={(e) => setMaxProducts(e.currentTarget.value)} />
            </label>
            <label class="inline"><input type="checkbox" checked={enrich} onChange={(e) => setEnrich(e.currentTarget.checked)} /> Enrichment</label>
          </>
        )}
        <button type="submit" disabled={busy}>{busy ? 'Starting…' : kind === 'crawl' ? 'Start crawl' : 'Start extraction'}</button>
      </form>
      <ErrorBox error={error} />
    </section>
  );
}

// progressOf reads how far an execution is, 0 to 100, and a line saying what it counts.
function progressOf(kind, e) {
  const meta = e.meta ?? {};
  if (e.status === 'completed') {
    if (kind === 'crawl') return [100, `${number(meta.result?.listings_total)} listings in ${number(meta.result?.collections_total)} collections`];
    if (kind === 'extract') return [100, `${number(meta.result?.products_successful)} of ${number(meta.result?.products_requested)} products extracted`];
    return [100, `${number(meta.result?.products_total)} results`];
  }
  if (kind === 'extract') {
    const p = meta.progress;
    return [p?.percent_complete ?? 0, p ? `${number(p.products_processed)} of ${number(p.products_total)} products processed` : 'Waiting to start'];
  }
  const steps = meta.steps ?? [];
  const done = steps.filter((s) => s.status === 'completed').length + 0.5 * steps.filter((s) => s.status === 'running').length;
  const value = steps.length ? (done / steps.length) * 100 : 0;
  if (kind === 'crawl') {
    const p = meta.progress;
    return [value, p ? `${number(p.listings_found)} listings found in ${number(p.collections_found)} collections` : 'Waiting to start'];
  }
  const p = meta.progress;
  return [value, p ? `${number(p.candidates_found)} candidates, ${number(p.products_ranked)} ranked` : 'Waiting to start'];
}

export function ExecutionDetail({ kind, id }) {
  const k = kinds[kind];
  const [cancelError, setCancelError] = useState(null);
  const detail = useLoad((signal) => get(`${k.path}/${encodeURIComponent(id)}${query({ page_size: 20 })}`, { signal }), [kind, id],
    { every: polling, keepPolling: (e) => !isEnded(e.status) });
  const cancel = async () => {
    setCancelError(null);
    try {
      await del(`${k.path}/${encodeURIComponent(id)}`);
      detail.reload();
    } catch (err) {
      setCancelError(err);
    }
  };
  const e = detail.data;
  const [value, line] = e ? progressOf(kind, e) : [0, ''];
  return (
    <>
      <p><a href="#/executions">← Executions</a></p>
      <h1>{k.label} <code class="id">{id}</code></h1>
      {detail.loading && !e && <Loading />}
      <ErrorBox error={detail.error} retry={detail.reload} />
      {e && (
        <>
          <div class="row">
            <StatusBadge status={e.status} />
            {!isEnded(e.status) && <button type="button" class="danger" onClick={cancel}>Cancel</button>}
          </div>
          <ErrorBox error={cancelError} />
          {e.status === 'failed' && <div class="error" role="alert"><strong>Failed:</strong> {e.error}</div>}
          <ProgressBar value={value} label={`${k.label} progress`} />
          <p aria-live="polite" data-testid="progress-line">{line}</p>
          {e.meta?.waiting_for && <p>Waiting for crawl <a href={`#/executions/crawl/${encodeURIComponent(e.meta.waiting_for)}`}><code>{e.meta.waiting_for}</code></a></p>}
          <dl class="facts">
            {e.meta?.vendor && <><dt>Vendor</dt><dd><a href={`#/catalog/${encodeURIComponent(e.meta.vendor)}`}>{e.meta.vendor}</a></dd></>}
            {e.meta?.query && <><dt>Query</dt><dd>{e.meta.query}</dd></>}
            <dt>Started</dt><dd>{dateTime(e.meta?.start_date)}</dd>
            <dt>Stopped</dt><dd>{dateTime(e.meta?.stop_date)}</dd>
            <dt>Duration</dt><dd>{duration(e.meta?.duration_ms)}</dd>
          </dl>
          {e.meta?.steps?.length > 0 && (
            <>
              <h2>Steps</h2>
              <ol class="steps" data-testid="steps">
                {e.meta.steps.map((s) => <li class={`step-${s.status}`}>{s.name} <StatusBadge status={s.status} /></li>)}
              </ol>
            </>
          )}
          {kind === 'extract' && e.data?.length > 0 && <ExtractItems items={e.data} />}
          {kind === 'search' && e.status === 'completed' && <p><a href="#/search">Open the search playground</a> to run searches and read their reasons.</p>}
        </>
      )}
    </>
  );
}

function ExtractItems({ items }) {
  return (
    <>
      <h2>Products</h2>
      <ul class="list">
        {items.map((item) => (
          <li>
            {item.product
              ? <a href={`#/catalog/${encodeURIComponent(item.product.store_domain)}/product${query({ url: item.url })}`}>{item.product.title ?? item.url}</a>
              : <span>{item.url}</span>}{' '}
            <StatusBadge status={item.outcome} />{item.message && <span class="muted"> {item.message}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}
