// The console's only way to the service: the public API, with the signed-in key.

const keyName = 'stockroom.apiKey';

// The key lives in this tab's session storage: closing the tab or signing out forgets it.
export const session = {
  key: () => sessionStorage.getItem(keyName),
  signIn: (key) => sessionStorage.setItem(keyName, key),
  signOut: () => sessionStorage.removeItem(keyName),
};

// APIError is a failed call, in words, with the request id support can look up.
export class APIError extends Error {
  constructor(status, code, message, requestId) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

// api calls the service and returns the parsed body, or throws an APIError. Nothing is
// cached: another key must never see this key's answers.
export async function api(method, path, body, { signal, key = session.key() } = {}) {
  const headers = { 'x-api-key': key ?? '' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
      signal,
    });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new APIError(0, 'NETWORK', 'The service cannot be reached. Check that it is running, then retry.', null);
  }
  const requestId = response.headers.get('Request-ID');
  let data = null;
  try {
    data = await response.json();
  } catch {
    // A body that is not JSON is reported by status below.
  }
  if (!response.ok) {
    const error = data?.error;
    const message = typeof error === 'string' ? error : error?.message ?? `The service answered ${response.status}.`;
    throw new APIError(response.status, error?.code, message, error?.request_id ?? requestId);
  }
  return data;
}

export const get = (path, options) => api('GET', path, undefined, options);
export const post = (path, body, options) => api('POST', path, body, options);
export const del = (path, options) => api('DELETE', path, undefined, options);

// query builds a query string from the defined values of params.
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
