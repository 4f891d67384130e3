// Formatting in the browser's own locale.

const locale = () => navigator.language || undefined;

export function dateTime(iso) {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}

// day formats a YYYY-MM-DD (UTC) date.
export function day(ymd) {
  return new Date(`${ymd}T00:00:00Z`).toLocaleDateString(locale(), { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

export function money(value, currency) {
  if (value === null || value === undefined) return '—';
  try {
    return new Intl.NumberFormat(locale(), { style: 'currency', currency: currency || 'USD' }).format(value);
  } catch {
    return `${value} ${currency ?? ''}`.trim();
  }
}

export const number = (n) => (n ?? 0).toLocaleString(locale());
export const percent = (f) => (f ?? 0).toLocaleString(locale(), { style: 'percent', maximumFractionDigits: 1 });

export function duration(ms) {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toLocaleString(locale(), { maximumFractionDigits: 1 })} s`;
}
