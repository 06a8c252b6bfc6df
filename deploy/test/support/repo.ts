import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');

export const SERVICES = [
  { name: 'workspace-api', port: 3001, schema: 'workspace' },
  { name: 'calendar-api', port: 3002, schema: 'calendar' },
] as const;

export type Service = (typeof SERVICES)[number];
