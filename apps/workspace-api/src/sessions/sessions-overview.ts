import type { KasmOwners } from './kasm-owners';
import type { Activity, LaunchHourRow, LiveTally } from './kasm-overview.sql';
import type { KasmsRepository } from './kasms.repository';

/** A running session with no input, keepalive or start for this long is idle on the overview. */
export const IDLE_AFTER_SECONDS = 300;
/** How many of the oldest live sessions the overview lists by name. */
export const OLDEST_SHOWN = 20;
const HOUR_MS = 3_600_000;

/** Live sessions of one workspace or agent, by what they are doing. */
export interface PlaceTally {
  id: string;
  name: string;
  counts: Partial<Record<Activity, number>>;
  total: number;
}

/** One live session of a user: who, where, doing what, since when. */
export interface LiveSessionLine {
  id: string;
  username: string;
  workspace: string;
  agent: string;
  status: string;
  activity: Activity;
  since: Date;
  /** How many joiners and watchers the session has (session-sharing), shown beside it. */
  viewers?: number;
}

/** The launches placed in the hour starting at `start`. */
export type LaunchHour = Omit<LaunchHourRow, 'slot'> & { start: Date };

export interface LiveOverview {
  total: number;
  byWorkspace: PlaceTally[];
  byAgent: PlaceTally[];
  /** The OLDEST_SHOWN oldest sessions of users, oldest first. */
  oldest: LiveSessionLine[];
}

/** Tallies grouped under `key`'s id, named by `nameOf`; most sessions first. */
export function tallyBy(
  tallies: readonly LiveTally[],
  key: 'imageId' | 'agentId',
  nameOf: (id: string) => string,
): PlaceTally[] {
  const places = new Map<string, PlaceTally>();
  for (const tally of tallies) {
    const id = tally[key];
    const place = places.get(id) ?? { id, name: nameOf(id), counts: {}, total: 0 };
    place.counts[tally.activity] = (place.counts[tally.activity] ?? 0) + tally.count;
    place.total += tally.count;
    places.set(id, place);
  }
  return [...places.values()].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
}

/** The 24 hours up to the end of `now`'s hour, each with its launches (none when absent). */
export function lastDayHours(now: Date, rows: readonly LaunchHourRow[]): LaunchHour[] {
  const since = lastDayStart(now);
  const bySlot = new Map(rows.map((row) => [row.slot, row]));
  return Array.from({ length: 24 }, (_, slot) => {
    const row = bySlot.get(slot);
    return {
      start: new Date(since.getTime() + slot * HOUR_MS),
      launches: row?.launches ?? 0,
      failures: row?.failures ?? 0,
      medianSeconds: row?.medianSeconds ?? null,
      p95Seconds: row?.p95Seconds ?? null,
    };
  });
}

/** The start of the hour 23 hours before `now`'s. */
export const lastDayStart = (now: Date) =>
  new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS);

/**
 * The fleet at a glance for the console: live sessions by workspace and agent and the oldest by
 * name, and the last day's launches by the hour. Names come from their own repositories.
 */
export function createSessionsOverview({
  kasms,
  owners,
}: {
  kasms: KasmsRepository;
  owners: Pick<KasmOwners, 'users' | 'images' | 'agents'>;
}) {
  const distinct = (ids: string[]) => [...new Set(ids)];
  return {
    async live(now = new Date()): Promise<LiveOverview> {
      const [tallies, oldest] = await Promise.all([
        kasms.liveTallies(now, IDLE_AFTER_SECONDS),
        kasms.oldestLive(now, IDLE_AFTER_SECONDS, OLDEST_SHOWN),
      ]);
      const all = [...tallies, ...oldest];
      const [images, agents, users] = await Promise.all([
        owners.images.namesOf(distinct(all.map((row) => row.imageId))),
        owners.agents.enginesOf(distinct(all.map((row) => row.agentId))),
        owners.users.ownersOf(distinct(oldest.map((row) => row.userId))),
      ]);
      // A workspace or agent removed meanwhile took its sessions with it (the keys cascade).
      const workspace = (id: string) => images.get(id)?.friendlyName ?? '(removed)';
      const agent = (id: string) => agents.get(id)?.hostname ?? '(removed)';
      return {
        total: tallies.reduce((sum, tally) => sum + tally.count, 0),
        byWorkspace: tallyBy(tallies, 'imageId', workspace),
        byAgent: tallyBy(tallies, 'agentId', agent),
        oldest: oldest.map((row) => ({
          id: row.id,
          username: users.get(row.userId)?.username ?? '(removed)',
          workspace: workspace(row.imageId),
          agent: agent(row.agentId),
          status: row.status,
          activity: row.activity,
          since: row.createdAt,
        })),
      };
    },

    /** The 24 hours up to the end of the current one: launches, failures and launch times. */
    async lastDay(now = new Date()): Promise<LaunchHour[]> {
      const since = lastDayStart(now);
      const rows = await kasms.launchHours(since, new Date(since.getTime() + 24 * HOUR_MS));
      return lastDayHours(now, rows);
    },
  };
}
export type SessionsOverview = ReturnType<typeof createSessionsOverview>;
