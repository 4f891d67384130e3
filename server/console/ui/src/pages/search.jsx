// Search playground: a query, an optional customer profile, full or mini; results with
// their score, reasons and the relaxations applied.
import { useState } from 'preact/hooks';
import { get, post } from '../api.js';
import { ErrorBox, Loading, Empty, Price } from '../ui.jsx';

// profileTemplate is the common structure of a customer profile (any JSON object works).
const profileTemplate = JSON.stringify({
  style: { fit: '', color: '', aesthetic: [], silhouette: [], avoid: [] },
  preferences: { in_stock_only: false, comfort_priority: false },
  usage_context: { activities: [], environment: '', travel_friendly: false, durability_priority: false },
  purchase_behavior: { value: '', buying_frequency: '' },
}, null, 2);

export function Search() {
  const [text, setText] = useState('');
  const [useProfile, setUseProfile] = useState(false);
  const [profile, setProfile] = useState(profileTemplate);
  const [mode, setMode] = useState('full');
  const [state, setState] = useState({ phase: 'idle' });
  let profileError = null;
  let parsedProfile;
  if (useProfile) {
    try {
      parsedProfile = JSON.parse(profile);
      if (typeof parsedProfile !== 'object' || Array.isArray(parsedProfile) || parsedProfile === null) profileError = 'The profile must be a JSON object.';
    } catch (err) {
      profileError = `The profile is not valid JSON: ${err.message}`;
    }
  }
  const run = async (e) => {
    e.preventDefault();
    if (profileError) return;
    setState({ phase: 'running' });
    const body = { query: text.trim() };
    if (useProfile) body.customer_profile = parsedProfile;
    try {
      if (mode === 'mini') {
        const answer = await post('/v2/agentic-search-mini', body);
        setState({ phase: 'done', results: answer.data, relaxed: answer.meta.relaxed, mini: true });
        return;
      }
      const started = await post('/v2/agentic-search', body);
      for (;;) {
        const s = await get(`/v2/agentic-search/${encodeURIComponent(started.execution_id)}?page_size=20`);
        if (s.status === 'failed') {
          setState({ phase: 'failed', message: s.error });
          return;
        }
        if (s.status === 'completed') {
          setState({ phase: 'done', results: s.data, relaxed: s.meta.result?.relaxed ?? [], id: s.execution_id });
          return;
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    } catch (err) {
      setState({ phase: 'error', error: err });
    }
  };
  return (
    <>
      <h1>Search playground</h1>
      <form class="form panel" onSubmit={run}>
        <label>Query
          <input name="query" type="search" required value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder="warm waterproof jacket under 200" />
        </label>
        <fieldset>
          <legend>Kind</legend>
          <label class="inline"><input type="radio" name="mode" checked={mode === 'full'} onChange={() => setMode('full')} /> Full (scores and reasons, 25 credits)</label>
          <label class="inline"><input type="radio" name="mode" checked={mode === 'mini'} onChange={() => setMode('mini')} /> Mini (up to 10, 5 credits)</label>
        </fieldset>
        <label class="inline"><input type="checkbox" name="use_profile" checked={useProfile} onChange={(e) => setUseProfile(e.currentTarget.checked)} /> Customer profile</label>
        {useProfile && (
          <label>Profile (JSON)
            <textarea name="profile" class="code" rows="14" spellcheck={false} value={profile} onInput={(e) => setProfile(e.currentTarget.value)} aria-invalid={profileError ? 'true' : undefined} aria-describedby="profile-error" />
            <span id="profile-error" class="bad">{profileError}</span>
          </label>
        )}
        <button type="submit" disabled={state.phase === 'running' || !!profileError}>Search</button>
      </form>
      {state.phase === 'running' && <Loading what="Searching" />}
      {state.phase === 'error' && <ErrorBox error={state.error} />}
      {state.phase === 'failed' && <div class="error" role="alert">The search failed: {state.message}</div>}
      {state.phase === 'done' && <Results {...state} />}
    </>
  );
}

function Results({ results, relaxed, mini, id }) {
  return (
    <section aria-labelledby="results-h">
      <h2 id="results-h">{results.length} result{results.length === 1 ? '' : 's'}</h2>
      {id && <p class="muted">Execution <a href={`#/executions/search/${encodeURIComponent(id)}`}><code>{id}</code></a></p>}
      <p data-testid="relaxed">{relaxed.length ? <>Relaxed to find results: {relaxed.join(', ')}</> : 'No constraint was relaxed.'}</p>
      {results.length === 0 ? <Empty>Nothing matched. Try fewer words, or crawl more stores.</Empty> : (
        <ol class="results" data-testid="results">
          {results.map((r) => (
            <li class="result">
              {r.product?.images?.[0] && <img src={r.product.images[0].url} alt="" width="96" height="96" loading="lazy" />}
              <div>
                <a href={`#/catalog/${encodeURIComponent(r.product?.store_domain ?? '')}/product?url=${encodeURIComponent(r.url)}`}>{r.product?.title ?? r.url}</a>
                <p><Price price={r.product?.price} /> <span class="muted">from {r.source === 'listing' ? 'a crawled listing' : 'an extraction'}</span></p>
                {mini ? <p class="muted">Mini searches give no score or reasons.</p> : (
                  <>
                    <p class="muted">Score {r.score.toLocaleString(navigator.language, { maximumFractionDigits: 3 })}</p>
                    <ul class="reasons" data-testid="reasons">{r.reasons.map((reason) => <li>{reason}</li>)}</ul>
                  </>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
