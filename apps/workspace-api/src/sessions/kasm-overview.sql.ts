import { Prisma } from '../generated/prisma/client';
import { qualified } from '../db';
import { LIVE_STATUSES } from '../domain';

/**
 * What a live session is doing, as the console's overview draws it: `staged` (no user yet),
 * `active` or `idle` (running, with or without input, keepalive or start in the idle window),
 * `starting`, `asleep` (paused or stopped) or `ending` (stopping).
 */
export const ACTIVITIES = ['active', 'idle', 'starting', 'asleep', 'ending', 'staged'] as const;
export type Activity = (typeof ACTIVITIES)[number];

/** Live sessions of one workspace on one agent doing the same thing. */
export interface LiveTally {
  imageId: string;
  agentId: string;
  activity: Activity;
  count: number;
}

/** A user's live session, oldest first. */
export interface LiveSessionRow {
  id: string;
  userId: string;
  imageId: string;
  agentId: string;
  status: string;
  activity: Activity;
  createdAt: Date;
}

/** The launches placed in one hour of a window: `slot` 0 is its first hour. */
export interface LaunchHourRow {
  slot: number;
  launches: number;
  /** Launches that ended in error before running (a session that failed later ran first). */
  failures: number;
  /** From placement to running, in seconds, of the launches that ran; null when none did. */
  medianSeconds: number | null;
  p95Seconds: number | null;
}

const LIVE = Prisma.join([...LIVE_STATUSES]);

/** The activity of session `k` at `now`: one definition for the tallies and the list. */
const activity = (now: Date, idleSeconds: number) => Prisma.sql`CASE
    WHEN k.user_id IS NULL THEN 'staged'
    WHEN k.status = 'running' AND GREATEST(k.last_input_at, k.keepalive_at, k.started_at)
         < ${now}::timestamptz - make_interval(secs => ${idleSeconds}) THEN 'idle'
    WHEN k.status = 'running' THEN 'active'
    WHEN k.status IN ('paused', 'stopped') THEN 'asleep'
    WHEN k.status = 'stopping' THEN 'ending'
    ELSE 'starting' END`;

/** The overview's statements over sessions (`kasm`), for kasms.repository to run. */
export function kasmOverviewStatements(schema: string) {
  const kasm = Prisma.raw(qualified(schema, 'kasm'));
  const ranFor = Prisma.sql`extract(epoch FROM k.started_at - k.created_at)::float8`;
  return {
    liveTallies: (now: Date, idleSeconds: number) => Prisma.sql`
      SELECT k.image_id AS "imageId", k.agent_id AS "agentId",
             ${activity(now, idleSeconds)} AS activity, count(*)::integer AS count
        FROM ${kasm} k WHERE k.status IN (${LIVE})
       GROUP BY 1, 2, 3`,

    oldestLive: (now: Date, idleSeconds: number, limit: number) => Prisma.sql`
      SELECT k.id, k.user_id AS "userId", k.image_id AS "imageId", k.agent_id AS "agentId",
             k.status, ${activity(now, idleSeconds)} AS activity, k.created_at AS "createdAt"
        FROM ${kasm} k WHERE k.status IN (${LIVE}) AND k.user_id IS NOT NULL
       ORDER BY k.created_at, k.id LIMIT ${limit}`,

    launchHours: (since: Date, until: Date) => Prisma.sql`
      SELECT floor(extract(epoch FROM k.created_at - ${since}::timestamptz) / 3600)::integer AS slot,
             count(*)::integer AS launches,
             (count(*) FILTER (WHERE k.status = 'error' AND k.started_at IS NULL))::integer
               AS failures,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY ${ranFor})
               FILTER (WHERE k.started_at IS NOT NULL) AS "medianSeconds",
             percentile_cont(0.95) WITHIN GROUP (ORDER BY ${ranFor})
               FILTER (WHERE k.started_at IS NOT NULL) AS "p95Seconds"
        FROM ${kasm} k
       WHERE k.created_at >= ${since}::timestamptz AND k.created_at < ${until}::timestamptz
       GROUP BY 1 ORDER BY 1`,
  };
}
