// Overview: the balance, auto top-up, and calls per day by path with each path's error
// rate and p95 latency.
import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { day, number, percent } from '../format.js';
import { ErrorBox, Loading, Empty, useLoad } from '../ui.jsx';

const periods = ['24h', '7d', '30d', '90d'];
const palette = ['#1f5fbf', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#854d0e', '#475569'];
const charted = palette.length - 1; // the last colour is "other paths"

export function Overview() {
  const [period, setPeriod] = useState('7d');
  const account = useLoad((signal) => get('/v2/account', { signal }), []);
  const activity = useLoad((signal) => get(`/v2/usage/activity${query({ period })}`, { signal }), [period]);
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="account-h" class="cards">
        <h2 id="account-h" class="visually-hidden">Account</h2>
        {account.loading && !account.data && <Loading />}
        <ErrorBox error={account.error} retry={account.reload} />
        {account.data && (
          <>
            <div class="card"><span class="muted">Organization</span><strong>{account.data.organization}</strong></div>
            <div class="card"><span class="muted">Credits</span><strong data-testid="credits">{number(account.data.credits)}</strong></div>
            <div class="card"><span class="muted">Auto top-up</span><strong>{account.data.auto_top_up ? 'On' : 'Off (crawls need it)'}</strong></div>
          </>
        )}
      </section>
      <section aria-labelledby="usage-h">
        <div class="row">
          <h2 id="usage-h">Calls per day</h2>
          <div role="group" aria-label="Period" class="segmented">
            {periods.map((p) => (
              <button type="button" aria-pressed={p === period} onClick={() => setPeriod(p)}>{p}</button>
            ))}
          </div>
        </div>
        {activity.loading && <Loading what="Loading usage" />}
        <ErrorBox error={activity.error} retry={activity.reload} />
        {activity.data && !activity.loading && (activity.data.data.length === 0
          ? <Empty>No calls in this period.</Empty>
          : <Usage paths={activity.data.data} />)}
      </section>
    </>
  );
}

// series turns paths into the days of the chart and each day's calls per charted path.
function series(paths) {
  const days = [...new Set(paths.flatMap((p) => p.days.map((d) => d.date)))].sort();
  const shown = paths.slice(0, charted);
  const rest = paths.slice(charted);
  const callsOn = (p, date) => p.days.find((d) => d.date === date)?.calls ?? 0;
  const rows = days.map((date) => ({
    date,
    parts: [...shown.map((p) => callsOn(p, date)), rest.reduce((sum, p) => sum + callsOn(p, date), 0)],
  }));
  const legend = [...shown.map((p) => p.path), ...(rest.length ? [`${rest.length} other paths`] : [])];
  return { rows, legend };
}

function Usage({ paths }) {
  const { rows, legend } = series(paths);
  const max = Math.max(...rows.map((r) => r.parts.reduce((a, b) => a + b, 0)), 1);
  const width = 640, height = 220, pad = 28;
  const slot = (width - pad) / rows.length;
  const bar = Math.min(48, slot * 0.7);
  const total = paths.reduce((sum, p) => sum + p.total_calls, 0);
  return (
    <>
      <figure class="chart">
        <svg viewBox={`0 0 ${width} ${height + 24}`} role="img" aria-labelledby="chart-title" data-testid="usage-chart">
          <title id="chart-title">{`${number(total)} calls over ${rows.length} day(s); the table below lists them per path.`}</title>
          <line x1={pad} y1={height} x2={width} y2={height} stroke="#94a3b8" />
          <text x="0" y="12" class="axis">{number(max)}</text>
          <text x="0" y={height} class="axis">0</text>
          {rows.map((r, i) => {
            let y = height;
            const x = pad + i * slot + (slot - bar) / 2;
            return (
              <g data-date={r.date}>
                {r.parts.map((calls, j) => {
                  const h = (calls / max) * (height - 16);
                  y -= h;
                  return calls > 0 && <rect x={x} y={y} width={bar} height={h} fill={palette[j]}><title>{`${legend[j]}: ${number(calls)} on ${day(r.date)}`}</title></rect>;
                })}
                <text x={x + bar / 2} y={height + 16} text-anchor="middle" class="axis">{day(r.date)}</text>
              </g>
            );
          })}
        </svg>
        <figcaption>
          <ul class="legend">
            {legend.map((name, j) => <li><span class="swatch" style={{ background: palette[j] }} aria-hidden="true" />{name}</li>)}
          </ul>
        </figcaption>
      </figure>
      <div class="table-wrap">
        <table data-testid="usage-table">
          <caption class="visually-hidden">Calls, error rate and latency per path</caption>
          <thead><tr><th scope="col">Path</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Error rate</th><th scope="col" class="num">p95 latency</th></tr></thead>
          <tbody>
            {paths.map((p) => (
              <tr>
                <th scope="row"><code>{p.path}</code></th>
                <td class="num">{number(p.total_calls)}</td>
                <td class={`num ${p.error_rate > 0.05 ? 'bad' : ''}`}>{percent(p.error_rate)}</td>
                <td class="num">{p.p95_latency_ms.toLocaleString(navigator.language, { maximumFractionDigits: 1 })} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
