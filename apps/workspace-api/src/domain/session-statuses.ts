/**
 * Statuses that hold a reservation of cores and memory on an agent: a container is being made,
 * runs, is frozen (paused: its memory stays taken) or is being removed.
 */
export const RESERVING_STATUSES = [
  'requested',
  'provisioning',
  'starting',
  'running',
  'stopping',
  'paused',
] as const;

/**
 * Sessions that still exist: they count toward the user's session limit, are listed and may be
 * destroyed. A stopped session (Kasm's stop_kasm) keeps its container and disk but reserves
 * nothing; resume_kasm reserves again. An ended session is destroyed or error.
 */
export const LIVE_STATUSES = [...RESERVING_STATUSES, 'stopped'] as const;
export type KasmStatus = (typeof LIVE_STATUSES)[number] | 'destroyed' | 'error';
