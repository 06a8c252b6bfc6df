import { Prisma, type Kasm } from '../generated/prisma/client';
import { qualified, runStatement, type Database, type TransactionOptions, type Tx } from '../db';
import { type KasmStatus, LIVE_STATUSES, RESERVING_STATUSES } from '../domain';
import {
  kasmOverviewStatements,
  type LaunchHourRow,
  type LiveSessionRow,
  type LiveTally,
} from './kasm-overview.sql';
import type { TimelineEntry } from './launch-timeline';

/** Statuses in which some process is working on the session under a lease. */
const PASSING_STATUSES = ['requested', 'provisioning', 'starting', 'stopping'] as const;

/** A session as stored; its owner, workspace and agent are theirs to say (kasm-owners.ts). */
export type KasmRow = Kasm;

export type NewKasm = Pick<
  Prisma.KasmUncheckedCreateInput,
  | 'id'
  | 'userId'
  | 'imageId'
  | 'agentId'
  | 'cores'
  | 'memory'
  | 'plan'
  | 'tokenHash'
  | 'containerSecret'
  | 'leaseOwner'
  | 'leaseUntil'
  | 'expiresAt'
  | 'hardExpiresAt'
  | 'stagingConfigId'
  | 'shareId'
>;

/** What a session taken from staging gets for its user. */
export interface StagedClaim {
  userId: string;
  plan: object;
  tokenHash: string;
  expiresAt: Date;
  hardExpiresAt: Date;
}

const live = { in: [...LIVE_STATUSES] };
const reserving = { in: [...RESERVING_STATUSES] };
/** Statuses in which the session's container should exist on its agent. */
const WITH_CONTAINER: KasmStatus[] = ['running', 'paused', 'stopped'];
/**
 * A session being resumed: starting, yet it ran before. A launch sets started_at only when it
 * reaches running, and only resume_kasm moves a session that ran back to starting.
 */
const RESUMING = Prisma.sql`(status = 'starting' AND started_at IS NOT NULL)`;
/** The live statuses as SQL literals: constants of our own, never client input. */
const LIVE_SQL = LIVE_STATUSES.map((status) => `'${status}'`).join(', ');

/** A joiner's grant as it is stored. */
export interface JoinerGrant {
  kasmId: string;
  secretHash: string;
  expiresAt: Date;
  role: string;
  shareId: string;
  joinerId: string | null;
  joinerName: string;
}

/** Every query of sessions (`kasm`) and their proxy grants (`kasm_grant`). */
export function createKasmsRepository(database: Database) {
  const { prisma: db, schema } = database;
  const table = (name: string) => Prisma.raw(qualified(schema, name));
  const overview = kasmOverviewStatements(schema);
  const hasLive = {
    name: 'kasms_has_live',
    text: `SELECT EXISTS (SELECT 1 FROM ${qualified(schema, 'kasm')} k
             WHERE k.user_id = $1::uuid AND k.status IN (${LIVE_SQL})) AS "hasLive"`,
  };
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions) =>
      database.transaction(work, options),

    /** Whether any session of the user is live: an index-only probe, prepared on the pool. */
    async hasLive(userId: string): Promise<boolean> {
      const [row] = await runStatement<{ hasLive: boolean }>(database, {
        ...hasLive,
        values: [userId],
      });
      return row.hasLive;
    },

    /** Whether any session on the agent is live (stopped ones hold a container there too). */
    hasLiveOn: async (agentId: string) =>
      (await db.kasm.count({ where: { agentId, status: live }, take: 1 })) > 0,

    countLive: (userId: string, tx?: Tx) =>
      (tx ?? db).kasm.count({ where: { userId, status: live } }),

    /** What sessions reserve on each agent (stopped ones reserve nothing). */
    async reservations(tx?: Tx): Promise<Map<string, { cores: number; memory: number }>> {
      const sums = await (tx ?? db).kasm.groupBy({
        by: ['agentId'],
        where: { status: reserving },
        _sum: { cores: true, memory: true },
      });
      return new Map(
        sums.map((s) => [
          s.agentId,
          { cores: s._sum.cores ?? 0, memory: Number(s._sum.memory ?? 0) },
        ]),
      );
    },

    insert: (tx: Tx, data: NewKasm): Promise<KasmRow> =>
      tx.kasm.create({ data: { ...data, status: 'requested' } }),

    find: (id: string, tx?: Tx): Promise<KasmRow | null> =>
      (tx ?? db).kasm.findUnique({ where: { id } }),

    /** Live sessions of users (staged sessions, with none yet, are staging's to show). */
    listLive(userId?: string): Promise<KasmRow[]> {
      return db.kasm.findMany({
        where: { status: live, userId: userId ?? { not: null } },
        orderBy: { createdAt: 'asc' },
      });
    },

    /**
     * Moves a session on only from the statuses given (and, with `owner`, only while that owner
     * holds it): false when another process changed it first. This is how launches, stops and
     * sweeps on several replicas never undo each other.
     */
    async transition(
      id: string,
      from: readonly KasmStatus[],
      data: Omit<Prisma.KasmUncheckedUpdateManyInput, 'launchTimeline'> & {
        status?: KasmStatus;
        launchTimeline?: TimelineEntry[];
      },
      owner?: string,
      tx?: Tx,
    ): Promise<boolean> {
      const { launchTimeline, ...fields } = data;
      const { count } = await (tx ?? db).kasm.updateMany({
        where: { id, status: { in: [...from] }, ...(owner ? { leaseOwner: owner } : {}) },
        data: {
          ...fields,
          ...(launchTimeline
            ? { launchTimeline: launchTimeline as unknown as Prisma.InputJsonArray }
            : {}),
        },
      });
      return count === 1;
    },

    renewLeases: (owner: string, ids: readonly string[], until: Date) =>
      db.kasm.updateMany({
        where: { id: { in: [...ids] }, leaseOwner: owner, status: { in: [...PASSING_STATUSES] } },
        data: { leaseUntil: until },
      }),

    /**
     * Claims up to `limit` sessions for removal: running ones past their expiry, sleeping (paused,
     * stopped) ones past their time limit (keepalives cannot reach them), and passing ones
     * whose lease ran out (their process died), except resumes (claimAbandonedResumes). SKIP
     * LOCKED lets replicas claim side by side.
     */
    async claimForCleanup(owner: string, until: Date, limit: number) {
      const kasm = table('kasm');
      return db.$queryRaw<{ id: string; previous: KasmStatus }[]>`
        WITH due AS (
          SELECT id, status FROM ${kasm}
          WHERE (status = 'running' AND expires_at < now())
             OR (status IN ('paused', 'stopped') AND hard_expires_at < now())
             OR (status IN ('requested', 'provisioning', 'starting', 'stopping')
                 AND lease_until < now() AND NOT ${RESUMING})
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
        )
        UPDATE ${kasm} k SET status = 'stopping', lease_owner = ${owner}, lease_until = ${until},
               updated_at = now()
        FROM due WHERE k.id = due.id
        RETURNING k.id, due.status AS previous`;
    },

    /**
     * Claims up to `limit` resumes whose lease ran out (their process died between reserving and
     * starting): they keep their container, and go back to stopped rather than away.
     */
    async claimAbandonedResumes(owner: string, until: Date, limit: number) {
      const kasm = table('kasm');
      return db.$queryRaw<{ id: string }[]>`
        WITH due AS (
          SELECT id FROM ${kasm} WHERE ${RESUMING} AND lease_until < now()
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
        )
        UPDATE ${kasm} k SET lease_owner = ${owner}, lease_until = ${until}, updated_at = now()
        FROM due WHERE k.id = due.id
        RETURNING k.id`;
    },

    /** Serializes the staging rounds of one staging config across replicas, until `tx` ends. */
    async lockStagingPool(tx: Tx, stagingConfigId: string): Promise<void> {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${stagingConfigId}, 0))`;
    },

    /** A staging config's live sessions that no user has taken yet, newest first. */
    stagedOf: (stagingConfigId: string, tx?: Tx) =>
      (tx ?? db).kasm.findMany({
        where: { stagingConfigId, userId: null, status: live },
        select: { id: true, status: true, plan: true },
        orderBy: { createdAt: 'desc' },
      }),

    /** Each staging config's unassigned sessions: running (ready to hand out) and starting. */
    async stagedCounts(tx?: Tx): Promise<Map<string, { running: number; starting: number }>> {
      const rows = await (tx ?? db).kasm.groupBy({
        by: ['stagingConfigId', 'status'],
        where: { userId: null, status: live, stagingConfigId: { not: null } },
        _count: { _all: true },
      });
      const counts = new Map<string, { running: number; starting: number }>();
      for (const row of rows) {
        const id = row.stagingConfigId as string;
        const count = counts.get(id) ?? { running: 0, starting: 0 };
        if (row.status === 'running') count.running += row._count._all;
        else if (row.status !== 'stopping') count.starting += row._count._all;
        counts.set(id, count);
      }
      return counts;
    },

    /** Unassigned live sessions whose staging config was deleted. */
    stagedWithoutConfig: () =>
      db.kasm.findMany({
        where: { userId: null, stagingConfigId: null, status: live },
        select: { id: true },
      }),

    /**
     * Locks one running staged session of the workspace for `tx`, on an online agent (of the
     * zone, when given): SKIP LOCKED, so two concurrent requests never get the same one. Only a
     * session with a minute of its staging life left is offered.
     */
    async lockStaged(tx: Tx, imageId: string, zoneId: string | null): Promise<KasmRow | null> {
      // Through the workspace's staging configs: their running sessions, by (config, status).
      const [found] = await tx.$queryRaw<{ id: string }[]>`
        SELECT k.id FROM ${table('staging_config')} s
          JOIN ${table('kasm')} k ON k.staging_config_id = s.id AND k.status = 'running'
          JOIN ${table('agent')} a ON a.id = k.agent_id
         WHERE s.image_id = ${imageId}::uuid AND k.user_id IS NULL
           AND k.expires_at > now() + interval '1 minute'
           AND a.status = 'online' AND (${zoneId}::uuid IS NULL OR a.zone_id = ${zoneId}::uuid)
         ORDER BY k.created_at LIMIT 1 FOR UPDATE OF k SKIP LOCKED`;
      return found ? tx.kasm.findUnique({ where: { id: found.id } }) : null;
    },

    /** Hands a staged session locked by `tx` to its user. */
    claimStaged: (tx: Tx, id: string, claim: StagedClaim): Promise<KasmRow> =>
      tx.kasm.update({
        where: { id, userId: null },
        data: { ...claim, keepaliveAt: null },
      }),

    /** Moves a staged session no user has taken to stopping under `owner`; false once taken or gone. */
    async retireStaged(id: string, owner: string, until: Date): Promise<boolean> {
      const { count } = await db.kasm.updateMany({
        where: { id, userId: null, status: { in: LIVE_STATUSES.filter((s) => s !== 'stopping') } },
        data: { status: 'stopping', leaseOwner: owner, leaseUntil: until },
      });
      return count === 1;
    },

    /** Live sessions by status and workspace (the metrics' view), in one grouped query. */
    countLiveByStatusAndWorkspace: () =>
      db.$queryRaw<{ status: KasmStatus; workspace: string; count: number }[]>`
        SELECT k.status, i.name AS workspace, count(*)::integer AS count
          FROM ${table('kasm')} k JOIN ${table('image')} i ON i.id = k.image_id
         WHERE k.status IN (${Prisma.join([...LIVE_STATUSES])})
         GROUP BY k.status, i.name`,

    /** The console's overview: live sessions by workspace, agent and activity at `now`. */
    liveTallies: (now: Date, idleSeconds: number) =>
      runStatement<LiveTally>(database, overview.liveTallies(now, idleSeconds)),

    /** The overview's `limit` oldest live sessions of users, with their activity at `now`. */
    oldestLive: (now: Date, idleSeconds: number, limit: number) =>
      runStatement<LiveSessionRow>(database, overview.oldestLive(now, idleSeconds, limit)),

    /** Launches placed from `since` until `until`, by the hour (only hours that had one). */
    launchHours: (since: Date, until: Date) =>
      runStatement<LaunchHourRow>(database, overview.launchHours(since, until)),

    /** Sessions on record for the given ids (the reconciler's view of an agent's containers). */
    statusesOf: (ids: readonly string[]) =>
      db.kasm.findMany({ where: { id: { in: [...ids] } }, select: { id: true, status: true } }),

    /** Sessions on the agent whose container should exist (running, paused or stopped). */
    withContainerOn: (agentId: string) =>
      db.kasm.findMany({
        where: { agentId, status: { in: WITH_CONTAINER } },
        select: { id: true, status: true },
      }),

    /** Running sessions that have their user (recordings: which to record). */
    runningWithUser: () =>
      db.kasm.findMany({
        where: { status: 'running', userId: { not: null } },
        select: { id: true, userId: true, imageId: true },
      }),

    /** Records that the session's stream carried input from its user (throttled by the caller). */
    recordInput: (id: string, at: Date) =>
      db.kasm.updateMany({ where: { id, status: 'running' }, data: { lastInputAt: at } }),

    /**
     * Running sessions whose workspace sets an idle limit and which had no input (nor keepalive,
     * nor start or resume) for that long, with the workspace's idle action; a staged session, with
     * no user yet, waits for one instead.
     */
    idle: (limit: number) =>
      db.$queryRaw<{ id: string; action: string }[]>`
        SELECT k.id, i.idle_action AS action
          FROM ${table('kasm')} k JOIN ${table('image')} i ON i.id = k.image_id
         WHERE k.status = 'running' AND k.user_id IS NOT NULL AND i.idle_limit_seconds > 0
           AND GREATEST(k.last_input_at, k.keepalive_at, k.started_at)
               < now() - make_interval(secs => i.idle_limit_seconds)
         ORDER BY k.id LIMIT ${limit}`,

    /**
     * Spends the connect token and records a grant in one transaction. The conditional update
     * lets exactly one of two concurrent uses win; the token's hash is replaced by one of a
     * secret nobody holds. Null when the token is not the session's current one.
     */
    spendToken(
      kasmId: string,
      tokenHash: string,
      grant: { secretHash: string; spentHash: string; expiresAt: Date },
    ): Promise<string | null> {
      return database.transaction(async (tx) => {
        const { count } = await tx.kasm.updateMany({
          where: { id: kasmId, tokenHash, status: live },
          data: { tokenHash: grant.spentHash },
        });
        if (count !== 1) return null;
        const created = await tx.kasmGrant.create({
          data: { kasmId, secretHash: grant.secretHash, expiresAt: grant.expiresAt },
          select: { id: true },
        });
        return created.id;
      });
    },

    findGrant: (id: string) =>
      db.kasmGrant.findUnique({
        where: { id },
        select: {
          kasmId: true,
          secretHash: true,
          expiresAt: true,
          role: true,
          joinerId: true,
          joinerName: true,
        },
      }),

    /** A joiner's grant, made in `tx` with the use of the share link that admits them. */
    insertJoinerGrant: (tx: Tx, grant: JoinerGrant) =>
      tx.kasmGrant.create({ data: grant, select: { id: true } }),

    /** Who holds a grant to the session besides its owner (joiners, watchers), oldest first. */
    participants: (kasmId: string) =>
      db.kasmGrant.findMany({
        where: { kasmId, role: { not: 'owner' }, expiresAt: { gt: new Date() } },
        select: { id: true, role: true, joinerId: true, joinerName: true, shareId: true, createdAt: true, expiresAt: true },
        orderBy: { createdAt: 'asc' },
      }),

    /** The joiners and watchers of each of `kasmIds` (the console's list of sessions). */
    participantsOf: (kasmIds: string[]) =>
      db.kasmGrant.findMany({
        where: { kasmId: { in: kasmIds }, role: { not: 'owner' }, expiresAt: { gt: new Date() } },
        select: { kasmId: true, role: true, joinerName: true },
        orderBy: { createdAt: 'asc' },
      }),

    /** A joiner's role, changed (view or control); false when the grant is not the session's. */
    async setParticipantRole(kasmId: string, grantId: string, role: string): Promise<boolean> {
      const { count } = await db.kasmGrant.updateMany({
        where: { id: grantId, kasmId, role: { in: ['view', 'control'] } },
        data: { role },
      });
      return count === 1;
    },

    /** Ends a joiner's or watcher's grant; false when it is not the session's. */
    async deleteParticipant(kasmId: string, grantId: string, tx?: Tx): Promise<boolean> {
      const { count } = await (tx ?? db).kasmGrant.deleteMany({
        where: { id: grantId, kasmId, role: { not: 'owner' } },
      });
      return count === 1;
    },

    /** The grants that came through a share link (their ids, to close their streams). */
    grantsOfShare: (shareId: string, tx?: Tx) =>
      (tx ?? db).kasmGrant.findMany({ where: { shareId }, select: { id: true } }),

    /** The live session Kasm's share_id names. */
    findByShareId: (shareId: string) =>
      db.kasm.findFirst({ where: { shareId, status: live }, select: { id: true, userId: true } }),

    /**
     * Ends the user's access to all of their sessions, in one transaction: every grant goes and
     * every unspent connect token is replaced by `spentHash` (of a secret nobody holds). An
     * exchange racing with it either committed first (its grant is deleted here) or finds its
     * token replaced. Answers the sessions' ids.
     */
    endAccessOf(userId: string, spentHash: string): Promise<string[]> {
      return database.transaction(async (tx) => {
        const kasms = await tx.kasm.updateManyAndReturn({
          where: { userId },
          data: { tokenHash: spentHash },
          select: { id: true },
        });
        const ids = kasms.map((kasm) => kasm.id);
        await tx.kasmGrant.deleteMany({ where: { kasmId: { in: ids } } });
        return ids;
      });
    },

    /** Ends every grant of a session (it is being stopped). */
    deleteGrants: (kasmId: string) => db.kasmGrant.deleteMany({ where: { kasmId } }),

    /** Removes grants past their lifetime and those of sessions that ended. */
    sweepGrants: () =>
      db.kasmGrant.deleteMany({
        where: {
          OR: [
            { expiresAt: { lte: new Date() } },
            { kasm: { status: { notIn: [...LIVE_STATUSES] } } },
          ],
        },
      }),
  };
}
export type KasmsRepository = ReturnType<typeof createKasmsRepository>;
