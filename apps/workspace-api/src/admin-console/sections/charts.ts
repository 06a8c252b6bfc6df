import { html, type Html } from '@platform/http';

/**
 * Charts drawn on the server as SVG, with no script and no library: the page's CSP refuses
 * inline styles, so sizes are SVG attributes and colours are classes of admin.css. Bars are
 * decoration beside text that carries their numbers; a column chart is an image with a title and
 * a description, and its numbers come in a table beside it.
 */

/** One part of a bar: its value, the class that colours it, and what it is in words. */
export interface Segment {
  value: number;
  className: string;
  label: string;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** A segment's rectangle, with its words as a tooltip. */
const segmentRect = (
  segment: Segment,
  box: { x: number; y: number; width: number; height: number },
) =>
  html`<rect
    class="${segment.className}"
    x="${box.x}"
    y="${box.y}"
    width="${box.width}"
    height="${box.height}"
    ><title>${segment.label}</title></rect
  >`;

/** A horizontal bar of `segments` on a track of `max`; hidden from assistive technology. */
export function bar(segments: readonly Segment[], max: number): Html {
  let x = 0;
  const parts = segments.map((segment) => {
    const width = max > 0 ? Math.min((segment.value / max) * 100, 100 - x) : 0;
    const rect = segmentRect(segment, {
      x: round(x),
      y: 0,
      width: round(Math.max(width, 0)),
      height: 10,
    });
    x += Math.max(width, 0);
    return rect;
  });
  return html`<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
    <rect class="track" x="0" y="0" width="100" height="10"></rect>
    ${parts}
  </svg>`;
}

/** The colours' key: a swatch and a word each. */
export function legend(items: readonly { className: string; label: string }[]): Html {
  return html`<ul class="legend">
    ${items.map(
      (item) =>
        html`<li>
          <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
            <rect class="${item.className}" width="10" height="10"></rect></svg
          >${item.label}
        </li>`,
    )}
  </ul>`;
}

/** One row of a bar list: a name, the bar, and the numbers in words. */
export interface BarRow {
  name: Html | string;
  segments: Segment[];
  /** The row's numbers as text: what the bar shows, for everyone. */
  value: Html | string;
  /** The row's own scale, when the rows do not share one. */
  max?: number;
}

/** Rows of named bars on one scale (`max`, unless a row has its own), as a list. */
export function barList(rows: readonly BarRow[], max = 0): Html {
  return html`<ul class="bars">
    ${rows.map(
      (row) =>
        html`<li>
          <span class="bar-name">${row.name}</span>${bar(row.segments, row.max ?? max)}<span
            class="bar-value"
            >${row.value}</span
          >
        </li>`,
    )}
  </ul>`;
}

/** The smallest of 1, 2, 5 × 10ⁿ at or above `value` (at least 1): an axis's top. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((top) => top >= value) as number;
}

/** One column of a column chart: stacked segments, an optional whisker up to a value, a label. */
export interface Column {
  segments: Segment[];
  whisker?: number | null;
  /** Shown under the column; blank columns keep their place. */
  label?: string;
}

const W = 720;
const H = 220;
const LEFT = 44;
const TOP = 12;
const BOTTOM = 184;

/** Columns over a y axis from 0 to a round top, with `unit` beside its numbers. */
export function columnChart(o: {
  id: string;
  title: string;
  description: string;
  columns: readonly Column[];
  unit?: string;
}): Html {
  const heights = o.columns.map((c) =>
    Math.max(
      c.whisker ?? 0,
      c.segments.reduce((sum, s) => sum + s.value, 0),
    ),
  );
  const top = niceMax(Math.max(0, ...heights));
  const y = (value: number) => round(BOTTOM - (value / top) * (BOTTOM - TOP));
  const step = (W - LEFT - 8) / Math.max(o.columns.length, 1);
  const width = round(step * 0.7);
  const axis = [0, top / 2, top].map(
    (value) =>
      html`<line class="grid" x1="${LEFT}" x2="${W - 8}" y1="${y(value)}" y2="${y(value)}"></line>
        <text class="tick" x="${LEFT - 6}" y="${y(value) + 4}" text-anchor="end">
          ${round(value)}${o.unit ?? ''}
        </text>`,
  );
  const columns = o.columns.map((column, i) => {
    const x = round(LEFT + i * step + (step - width) / 2);
    let base = 0;
    const stacks = column.segments.map((segment) => {
      const top = y(base + segment.value);
      const rect = segmentRect(segment, { x, y: top, width, height: round(y(base) - top) });
      base += segment.value;
      return rect;
    });
    const mid = round(x + width / 2);
    const whisker =
      column.whisker == null
        ? null
        : html`<line
              class="whisker"
              x1="${mid}"
              x2="${mid}"
              y1="${y(base)}"
              y2="${y(column.whisker)}"
            ></line
            ><line
              class="whisker"
              x1="${x}"
              x2="${round(x + width)}"
              y1="${y(column.whisker)}"
              y2="${y(column.whisker)}"
            ></line>`;
    const label = column.label
      ? html`<text class="tick" x="${mid}" y="${BOTTOM + 16}" text-anchor="middle">
          ${column.label}
        </text>`
      : null;
    return html`${stacks}${whisker}${label}`;
  });
  return html`<svg
    class="columns"
    viewBox="0 0 ${W} ${H}"
    role="img"
    aria-labelledby="${o.id}-title ${o.id}-desc"
  >
    <title id="${o.id}-title">${o.title}</title>
    <desc id="${o.id}-desc">${o.description}</desc>
    ${axis}${columns}
  </svg>`;
}
