// The console's shell: sign-in, navigation and the hash router (#/page/...), so that the
// server serves one page and every view has a link that survives a reload.
import { render } from 'preact';
import { useEffect, useState, useRef } from 'preact/hooks';
import { session, get, APIError } from './api.js';
import { ErrorBox } from './ui.jsx';
import { Overview } from './pages/overview.jsx';
import { Executions, ExecutionDetail } from './pages/executions.jsx';
import { Vendors, Vendor, Product } from './pages/catalog.jsx';
import { Search } from './pages/search.jsx';
import { forgetListings } from './listings.js';
import './style.css';

const sections = [
  ['overview', 'Overview'],
  ['executions', 'Executions'],
  ['catalog', 'Catalog'],
  ['search', 'Search'],
];

function useHash() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

// route splits #/a/b?x=1 into ['a', 'b'] and {x: '1'}.
function route(hash) {
  const [path, q = ''] = hash.replace(/^#\/?/, '').split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), params: Object.fromEntries(new URLSearchParams(q)) };
}

function Page({ parts, params }) {
  const [section = 'overview', ...rest] = parts;
  switch (section) {
    case 'executions':
      return rest.length === 2 ? <ExecutionDetail kind={rest[0]} id={rest[1]} /> : <Executions status={params.status ?? ''} />;
    case 'catalog':
      if (rest.length === 0) return <Vendors page={Number(params.page ?? 1)} />;
      if (rest[1] === 'product') return <Product vendor={rest[0]} url={params.url} />;
      return <Vendor vendor={rest[0]} collection={params.collection} page={Number(params.page ?? 1)} />;
    case 'search':
      return <Search />;
    default:
      return <Overview />;
  }
}

function Shell({ onSignOut }) {
  const { parts, params } = route(useHash());
  const section = parts[0] ?? 'overview';
  const main = useRef(null);
  // Move focus to the new page, so that keyboard and screen-reader users start there.
  useEffect(() => main.current?.focus({ preventScroll: true }), [section, parts.join('/')]);
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>Skip to content</a>
      <header class="top">
        <span class="brand">Stockroom</span>
        <nav aria-label="Sections">
          {sections.map(([id, label]) => (
            <a href={`#/${id}`} aria-current={section === id ? 'page' : undefined}>{label}</a>
          ))}
        </nav>
        <button type="button" class="signout" onClick={onSignOut}>Sign out</button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Page parts={parts} params={params} />
      </main>
    </>
  );
}

function SignIn({ onSignIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Check the key before keeping it, so a typo is caught here rather than on every page.
      await get('/v2/account', { key: key.trim() });
      onSignIn(key.trim());
    } catch (err) {
      setError(err instanceof APIError && err.status === 401 ? new APIError(401, null, 'That API key is not valid. Check it and try again.', err.requestId) : err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin" id="main">
      <h1>Stockroom console</h1>
      <form onSubmit={submit}>
        <label for="key">API key</label>
        <input id="key" name="key" type="password" autocomplete="off" required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        <p class="muted">Kept in this tab only, and forgotten when you sign out or close it.</p>
        <button type="submit" disabled={busy || !key.trim()}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <ErrorBox error={error} />
    </main>
  );
}

function App() {
  const [key, setKey] = useState(session.key());
  const signIn = (k) => {
    session.signIn(k);
    setKey(k);
  };
  const signOut = () => {
    session.signOut();
    forgetListings();
    setKey(null);
    location.hash = '';
  };
  // Keying the shell by the API key drops every page's state when the key changes.
  return key ? <Shell key={key} onSignOut={signOut} /> : <SignIn onSignIn={signIn} />;
}

render(<App />, document.getElementById('app'));
