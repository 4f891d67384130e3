// Pieces every page uses: loading, empty and error states, prices, progress bars, and a
// hook that loads (and optionally keeps polling) an API answer.
import { useEffect, useState, useCallback, useRef } from 'preact/hooks';
import { money } from './format.js';

export function Loading({ what = 'Loading' }) {
  return <p class="state" role="status" aria-live="polite"><span class="spinner" aria-hidden="true" />{what}…</p>;
}

export function Empty({ children }) {
  return <p class="state empty">{children}</p>;
}

export function ErrorBox({ error, retry }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <p><strong>{error.message}</strong></p>
      {error.code && <p class="muted">Code {error.code}{error.status ? ` (HTTP ${error.status})` : ''}</p>}
      {error.requestId && <p class="muted">Request id: <code>{error.requestId}</code></p>}
      {retry && <button type="button" onClick={retry}>Retry</button>}
    </div>
  );
}

// Price shows the current price; a higher compare-at price is the old one, struck through.
export function Price({ price }) {
  if (!price) return <span class="price muted">No price</span>;
  const sale = price.compare_at_value != null && price.compare_at_value > price.current_value;
  return (
    <span class="price">
      {sale && <><s aria-label={`was ${money(price.compare_at_value, price.currency)}`}>{money(price.compare_at_value, price.currency)}</s>{' '}</>}
      <span class={sale ? 'sale' : ''}>{money(price.current_value, price.currency)}</span>
    </span>
  );
}

export function ProgressBar({ value, label }) {
  const v = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div class="progress" role="progressbar" aria-label={label} aria-valuemin="0" aria-valuemax="100" aria-valuenow={v} data-value={v}>
      <div class="progress-fill" style={{ width: `${v}%` }} />
    </div>
  );
}

export function StatusBadge({ status }) {
  return <span class={`badge badge-${status}`}>{status}</span>;
}

// useLoad runs load(signal) when deps change and returns {data, error, loading, reload}.
// With every > 0 it loads again every that many milliseconds while keepPolling(data) holds.
// Until the answer for the current deps arrives, data is null: a view never shows the
// previous view's answer as its own.
export function useLoad(load, deps, { every = 0, keepPolling = () => true } = {}) {
  const key = JSON.stringify(deps);
  const [state, setState] = useState({ key, data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const keep = useRef(keepPolling);
  keep.current = keepPolling;
  useEffect(() => {
    const controller = new AbortController();
    let timer;
    const run = async (first) => {
      if (first) setState((s) => ({ key, data: s.key === key ? s.data : null, error: null, loading: true }));
      try {
        const data = await load(controller.signal);
        if (controller.signal.aborted) return;
        setState({ key, data, error: null, loading: false });
        if (every > 0 && keep.current(data)) timer = setTimeout(() => run(false), every);
      } catch (error) {
        if (controller.signal.aborted) return;
        setState((s) => ({ key, data: s.key === key ? s.data : null, error, loading: false }));
      }
    };
    run(true);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key, tick]);
  if (state.key !== key) return { data: null, error: null, loading: true, reload };
  return { ...state, reload };
}
