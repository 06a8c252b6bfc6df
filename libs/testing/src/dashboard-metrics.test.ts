import { dashboardExpressions, promqlMetricNames } from './dashboard-metrics';

describe('promqlMetricNames', () => {
  it.each([
    [
      'histogram_quantile(0.95, sum by (le, job, route) (rate(http_request_duration_seconds_bucket[$__rate_interval])))',
      ['http_request_duration_seconds_bucket'],
    ],
    [
      'sum by (target, outcome) (rate(calendar_notification_deliveries_total{outcome!="delivered", x=~"a_b"}[5m]))',
      ['calendar_notification_deliveries_total'],
    ],
    [
      'max by (agent) (workspace_agent_used_cores) / max by (agent) (workspace_agent_capacity_cores)',
      ['workspace_agent_used_cores', 'workspace_agent_capacity_cores'],
    ],
    ['label_replace(up, "a_b", "$1", "c_d", "(.*)")', []],
  ])('reads %s', (expr, names) => {
    expect(promqlMetricNames(expr)).toEqual(names);
  });

  it('finds panels with expressions in the dashboard', () => {
    const expressions = dashboardExpressions();
    expect(expressions.length).toBeGreaterThan(10);
    expect(expressions.every((expr) => promqlMetricNames(expr).length > 0)).toBe(true);
  });
});
