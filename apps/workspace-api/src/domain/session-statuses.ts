/** Statuses that hold a reservation on an agent and count toward the user's session limit. */
export const LIVE_STATUSES = [
  'requested',
  'provisioning',
  'starting',
  'running',
  'stopping',
] as const;
export type KasmStatus = (typeof LIVE_STATUSES)[number] | 'stopped' | 'error';
