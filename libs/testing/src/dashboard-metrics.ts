import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './built-server';

/** The Grafana dashboard in deploy/ (docs/metrics.md). */
export const DASHBOARD_PATH = path.join(REPO_ROOT, 'deploy', 'grafana', 'workspace-platform.json');

const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;

/**
 * The metric families a PromQL expression reads: label matchers, `by`/`without` groupings and
 * Grafana's `$variables` set aside, every name not called as a function; a histogram's
 * _bucket/_sum/_count series are named by their family.
 */
export function promqlMetricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without)\s*\([^)]*\)/g, '')
    .replace(/\$\w+/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)]
    .filter((m) => !m[2] && m[1].includes('_'))
    .map((m) => m[1]);
  return [...new Set(names)];
}

/** Every PromQL expression of the dashboard's panels. */
export function dashboardExpressions(file = DASHBOARD_PATH): string[] {
  const dashboard = JSON.parse(readFileSync(file, 'utf8')) as {
    panels: { targets?: { expr?: string }[] }[];
  };
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr ?? ''));
}

/**
 * The dashboard's metric names that a service's registry does not export, leaving out those of
 * the other service (by their prefix): an empty list means every panel of this service can show.
 */
export function dashboardNamesMissing(
  exported: Iterable<string>,
  otherServicePrefix: string,
): string[] {
  const families = new Set(exported);
  const read = dashboardExpressions().flatMap(promqlMetricNames);
  return [...new Set(read)].filter(
    (name) =>
      !name.startsWith(otherServicePrefix) &&
      !families.has(name) &&
      !families.has(name.replace(HISTOGRAM_SERIES, '')),
  );
}
