/** The phases of a launch, in order: the image pulled, the container created, started, serving. */
export const LAUNCH_PHASES = ['pull', 'create', 'start', 'ready'] as const;
export type LaunchPhase = (typeof LAUNCH_PHASES)[number];

/** One phase as stored on the session (jsonb) and sent in get_kasm_status; ISO timestamps. */
export interface TimelineEntry {
  phase: LaunchPhase;
  started_at: string;
  ended_at: string | null;
}

/** What a user's page says while a phase runs. */
const PHASE_WORDS: Record<LaunchPhase, string> = {
  pull: 'pulling',
  create: 'creating',
  start: 'starting',
  ready: 'waiting for the workspace to answer',
};

/**
 * A launch's phases as they happen. A phase that ends because the next began (or the launch
 * completed) is reported to `onEnd` with its duration; one that ends in a failure is only closed.
 */
export function createLaunchTimeline(
  onEnd: (phase: LaunchPhase, seconds: number) => void,
  now: () => Date = () => new Date(),
) {
  const entries: TimelineEntry[] = [];
  const close = (report: boolean) => {
    const last = entries.at(-1);
    if (!last || last.ended_at !== null) return;
    const end = now();
    last.ended_at = end.toISOString();
    if (report) onEnd(last.phase, (end.getTime() - Date.parse(last.started_at)) / 1000);
  };
  return {
    /** Ends the phase under way, if any, and begins `phase`; answers the timeline to store. */
    begin(phase: LaunchPhase): TimelineEntry[] {
      close(true);
      entries.push({ phase, started_at: now().toISOString(), ended_at: null });
      return this.entries();
    },
    /** The launch completed: the last phase ends. */
    complete(): TimelineEntry[] {
      close(true);
      return this.entries();
    },
    /** The launch failed: the phase under way ends at this moment, unreported. */
    fail(): TimelineEntry[] {
      close(false);
      return this.entries();
    },
    entries: (): TimelineEntry[] => entries.map((entry) => ({ ...entry })),
  };
}
export type LaunchTimeline = ReturnType<typeof createLaunchTimeline>;

const isEntry = (value: unknown): value is TimelineEntry =>
  typeof value === 'object' &&
  value !== null &&
  LAUNCH_PHASES.includes((value as TimelineEntry).phase) &&
  typeof (value as TimelineEntry).started_at === 'string';

/** The stored timeline of a session (jsonb), whatever an older row holds. */
export function readTimeline(stored: unknown): TimelineEntry[] {
  return Array.isArray(stored)
    ? stored.filter(isEntry).map((e) => ({
        phase: e.phase,
        started_at: e.started_at,
        ended_at: typeof e.ended_at === 'string' ? e.ended_at : null,
      }))
    : [];
}

/** The phase a launch is in, in words for its user's page; null when none runs. */
export function currentPhaseWords(status: string, stored: unknown): string | null {
  if (!['provisioning', 'starting'].includes(status)) return null;
  const last = readTimeline(stored).at(-1);
  return last && last.ended_at === null ? PHASE_WORDS[last.phase] : null;
}
