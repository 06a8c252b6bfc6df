import { html, type Html } from '@platform/http';
import type { LaunchHour } from '../../sessions';
import { dataTable } from '../admin-layout';
import { columnChart, legend } from './charts';

const seconds = (s: number | null) =>
  s === null ? '—' : `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
const hourOf = (date: Date) => `${String(date.getUTCHours()).padStart(2, '0')}:00`;
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const launchCount = (n: number) => plural(n, 'launch', 'launches');

/** The last day by the hour: launches and failures, launch times, and all of it as a table. */
export function lastDaySection(hours: LaunchHour[]): Html {
  const launches = hours.reduce((sum, h) => sum + h.launches, 0);
  const failures = hours.reduce((sum, h) => sum + h.failures, 0);
  const label = (h: LaunchHour, i: number) => (i % 3 === 0 ? hourOf(h.start) : undefined);
  const busiest = hours.reduce((best, h) => (h.launches > best.launches ? h : best), hours[0]);
  const slowest = hours.reduce(
    (worst, h) => ((h.medianSeconds ?? -1) > (worst.medianSeconds ?? -1) ? h : worst),
    hours[0],
  );
  const launchChart = columnChart({
    id: 'launches',
    title: 'Launches and failures per hour, last 24 hours (UTC)',
    description:
      launches === 0
        ? 'No launches in the last 24 hours.'
        : `${launchCount(launches)}, ${failures} failed; the busiest hour, ${hourOf(busiest.start)}, had ${busiest.launches}.`,
    columns: hours.map((h, i) => ({
      label: label(h, i),
      segments: [
        {
          value: h.failures,
          className: 'l-failed',
          label: `${hourOf(h.start)}: ${h.failures} failed`,
        },
        {
          value: h.launches - h.failures,
          className: 'l-ok',
          label: `${hourOf(h.start)}: ${h.launches - h.failures} did not fail`,
        },
      ],
    })),
  });
  const timeChart = columnChart({
    id: 'launch-time',
    title: 'Launch time per hour: median, with a whisker to the 95th percentile (UTC)',
    description:
      slowest.medianSeconds === null
        ? 'No launch reached running in the last 24 hours.'
        : `The slowest hour, ${hourOf(slowest.start)}, had a median of ${seconds(slowest.medianSeconds)} and a 95th percentile of ${seconds(slowest.p95Seconds)}.`,
    unit: ' s',
    columns: hours.map((h, i) => ({
      label: label(h, i),
      whisker: h.p95Seconds,
      segments: [
        {
          value: h.medianSeconds ?? 0,
          className: 'l-time',
          label: `${hourOf(h.start)}: median ${seconds(h.medianSeconds)}, 95th percentile ${seconds(h.p95Seconds)}`,
        },
      ],
    })),
  });
  const table = dataTable(
    'Launches per hour',
    ['Hour (UTC)', 'Launches', 'Failed', 'Median launch time', '95th percentile'],
    hours.map(
      (h) =>
        html`<tr>
          <td>${hourOf(h.start)}</td>
          <td>${h.launches}</td>
          <td>${h.failures}</td>
          <td>${seconds(h.medianSeconds)}</td>
          <td>${seconds(h.p95Seconds)}</td>
        </tr>`,
    ),
  );
  return html`<section aria-labelledby="day-heading" class="overview-part">
    <h2 id="day-heading">The last 24 hours</h2>
    <p class="lead">
      <strong>${launchCount(launches)}</strong>, ${failures}
      failed${launches > 0 ? ` (${Math.round((failures / launches) * 100)}%)` : null}.
      <small class="muted">Launch time: from placing the session on an agent to running.</small>
    </p>
    ${legend([
      { className: 'l-ok', label: 'launches that did not fail' },
      { className: 'l-failed', label: 'failed launches' },
    ])}
    <figure class="chart">
      <figcaption>Launches per hour (UTC)</figcaption>
      ${launchChart}
    </figure>
    <figure class="chart">
      <figcaption>
        Launch time per hour: the median, and a whisker up to the 95th percentile
      </figcaption>
      ${timeChart}
    </figure>
    <details>
      <summary>The hours as a table</summary>
      ${table}
    </details>
  </section>`;
}
