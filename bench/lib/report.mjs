// The one results table: printed, and written as JSON and Markdown to bench/results/.
import fs from 'node:fs';
import path from 'node:path';
import { RESULTS_DIR } from './paths.mjs';

/**
 * What the table shows of a measurement (lib/load.mjs).
 * @typedef {object} Figures
 * @property {number} [rps]
 * @property {number} [p50]
 * @property {number} [p99]
 * @property {number | null} [cpuUs]
 */

/**
 * One line of the table: a measured scenario carries its figures and its baseline's.
 * @typedef {Figures & {
 *   scenario: string,
 *   baseline?: Figures | null,
 *   result: string,
 *   target: string,
 *   pass: boolean | null,
 * }} Row
 */

/**
 * @param {number | null | undefined} value
 */
const num = (value, digits = 0) =>
  value === undefined || value === null || Number.isNaN(value) ? '—' : value.toFixed(digits);
const ms = (/** @type {number | undefined} */ value) =>
  value === undefined ? '—' : value < 10 ? value.toFixed(2) : value.toFixed(1);

/** @type {[title: string, cell: (row: Row) => string | undefined][]} */
const COLUMNS = [
  ['scenario', (r) => r.scenario],
  ['req/s', (r) => num(r.rps)],
  ['p50 ms', (r) => ms(r.p50)],
  ['p99 ms', (r) => ms(r.p99)],
  ['base req/s', (r) => num(r.baseline?.rps)],
  ['base p50', (r) => ms(r.baseline?.p50)],
  ['base p99', (r) => ms(r.baseline?.p99)],
  ['cpu µs', (r) => num(r.cpuUs)],
  ['base cpu µs', (r) => num(r.baseline?.cpuUs)],
  ['result', (r) => r.result],
  ['target', (r) => r.target],
  ['pass', (r) => (r.pass === null ? '—' : r.pass ? 'PASS' : 'FAIL')],
];

/**
 * The rows as aligned text; `columns` are [title, cell] pairs (the API bench's by default).
 * @template [R=Row]
 * @param {R[]} rows
 * @param {[title: string, cell: (row: R) => string | undefined][]} [columns]
 */
export function formatTable(
  rows,
  columns = /** @type {[string, (row: R) => string | undefined][]} */ (
    /** @type {unknown} */ (COLUMNS)
  ),
) {
  const cells = [
    columns.map(([title]) => title),
    ...rows.map((r) => columns.map(([, cell]) => String(cell(r)))),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (/** @type {string[]} */ row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [
    line(cells[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
  ].join('\n');
}

/** @param {Row[]} rows */
export function formatMarkdown(rows) {
  const head = `| ${COLUMNS.map(([title]) => title).join(' | ')} |`;
  const rule = `|${COLUMNS.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`;
  return [
    head,
    rule,
    ...rows.map((r) => `| ${COLUMNS.map(([, cell]) => String(cell(r))).join(' | ')} |`),
  ].join('\n');
}

/**
 * Writes `<timestamp>.json`, `latest.json` and `latest.md`; returns the JSON file's path.
 * @param {{ startedAt: string, scale: number, connections: number, durationS: number, database: string, runtimeS: number, rows: Row[] }} report
 *   and whatever else the JSON should hold
 */
export function writeResults(report) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const file = path.join(RESULTS_DIR, `${stamp}.json`);
  fs.writeFileSync(file, json);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), json);
  const md = [
    `Run of ${report.startedAt}: scale ${report.scale}, ${report.connections} connections, ${report.durationS} s per measurement, ${report.database}; ${report.runtimeS.toFixed(0)} s in all.`,
    '',
    formatMarkdown(report.rows),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), md);
  return file;
}
