export { createWorkspaceMetrics } from './workspace-metrics';
export type { WorkspaceMetricsSources } from './workspace-metrics';
