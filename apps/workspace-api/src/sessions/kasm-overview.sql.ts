import { qualified, type Statement } from '../db';
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

/** The live statuses as SQL literals: constants of our own, never client input. */
const LIVE = LIVE_STATUSES.map((status) => `'${status}'`).join(', ');

/** The activity of session `k` at $1 with an idle window of $2 seconds: one definition for both. */
const ACTIVITY = `CASE
    WHEN k.user_id IS NULL THEN 'staged'
    WHEN k.status = 'running' AND GREATEST(k.last_input_at, k.keepalive_at, k.started_at)
         < $1::timestamptz - make_interval(secs => $2::integer) THEN 'idle'
    WHEN k.status = 'running' THEN 'active'
    WHEN k.status IN ('paused', 'stopped') THEN 'asleep'
    WHEN k.status = 'stopping' THEN 'ending'
    ELSE 'starting' END`;

const RAN_FOR = 'extract(epoch FROM k.started_at - k.created_at)::float8';

/** The overview's prepared statements over sessions (`kasm`), which kasms.repository runs. */
export function kasmOverviewStatements(schema: string) {
  const kasm = qualified(schema, 'kasm');
  return {
    liveTallies: (now: Date, idleSeconds: number): Statement => ({
      name: 'kasms_live_tallies',
      text: `SELECT k.image_id AS "imageId", k.agent_id AS "agentId", ${ACTIVITY} AS activity,
                    count(*)::integer AS count
               FROM ${kasm} k WHERE k.status IN (${LIVE})
              GROUP BY 1, 2, 3`,
      values: [now, idleSeconds],
    }),

    oldestLive: (now: Date, idleSeconds: number, limit: number): Statement => ({
      name: 'kasms_oldest_live',
      text: `SELECT k.id, k.user_id AS "userId", k.image_id AS "imageId", k.agent_id AS "agentId",
                    k.status, ${ACTIVITY} AS activity, k.created_at AS "createdAt"
               FROM ${kasm} k WHERE k.status IN (${LIVE}) AND k.user_id IS NOT NULL
              ORDER BY k.created_at, k.id LIMIT $3`,
      values: [now, idleSeconds, limit],
    }),

    launchHours: (since: Date, until: Date): Statement => ({
      name: 'kasms_launch_hours',
      text: `SELECT floor(extract(epoch FROM k.created_at - $1::timestamptz) / 3600)::integer AS slot,
                    count(*)::integer AS launches,
                    (count(*) FILTER (WHERE k.status = 'error' AND k.started_at IS NULL))::integer
                      AS failures,
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY ${RAN_FOR})
                      FILTER (WHERE k.started_at IS NOT NULL) AS "medianSeconds",
                    percentile_cont(0.95) WITHIN GROUP (ORDER BY ${RAN_FOR})
                      FILTER (WHERE k.started_at IS NOT NULL) AS "p95Seconds"
               FROM ${kasm} k
              WHERE k.created_at >= $1::timestamptz AND k.created_at < $2::timestamptz
              GROUP BY 1 ORDER BY 1`,
      values: [since, until],
    }),
  };
}
