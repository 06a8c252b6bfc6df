import { Prisma, type Kasm } from '../generated/prisma/client';
import { qualified, runStatement, type Database, type TransactionOptions, type Tx } from '../db';
import { type KasmStatus, LIVE_STATUSES, RESERVING_STATUSES } from '../domain';
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
>;

const live = { in: [...LIVE_STATUSES] };
const reserving = { in: [...RESERVING_STATUSES] };
/** Statuses in which the session's container should exist on its agent. */
const WITH_CONTAINER: KasmStatus[] = ['running', 'paused', 'stopped'];
/** The live statuses as SQL literals: constants of our own, never client input. */
const LIVE_SQL = LIVE_STATUSES.map((status) => `'${status}'`).join(', ');

/** Every query of sessions (`kasm`) and their proxy grants (`kasm_grant`). */
export function createKasmsRepository(database: Database) {
  const { prisma: db, schema } = database;
  const table = (name: string) => Prisma.raw(qualified(schema, name));
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

    find: (id: string): Promise<KasmRow | null> => db.kasm.findUnique({ where: { id } }),

    listLive(userId?: string): Promise<KasmRow[]> {
      return db.kasm.findMany({
        where: { status: live, ...(userId ? { userId } : {}) },
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
     * whose lease ran out (their process died). SKIP LOCKED lets replicas claim side by side.
     */
    async claimForCleanup(owner: string, until: Date, limit: number) {
      const kasm = table('kasm');
      return db.$queryRaw<{ id: string; previous: KasmStatus }[]>`
        WITH due AS (
          SELECT id, status FROM ${kasm}
          WHERE (status = 'running' AND expires_at < now())
             OR (status IN ('paused', 'stopped') AND hard_expires_at < now())
             OR (status IN ('requested', 'provisioning', 'starting', 'stopping') AND lease_until < now())
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
        )
        UPDATE ${kasm} k SET status = 'stopping', lease_owner = ${owner}, lease_until = ${until},
               updated_at = now()
        FROM due WHERE k.id = due.id
        RETURNING k.id, due.status AS previous`;
    },

    /** Live sessions by status and workspace (the metrics' view), in one grouped query. */
    countLiveByStatusAndWorkspace: () =>
      db.$queryRaw<{ status: KasmStatus; workspace: string; count: number }[]>`
        SELECT k.status, i.name AS workspace, count(*)::integer AS count
          FROM ${table('kasm')} k JOIN ${table('image')} i ON i.id = k.image_id
         WHERE k.status IN (${Prisma.join([...LIVE_STATUSES])})
         GROUP BY k.status, i.name`,

    /** Sessions on record for the given ids (the reconciler's view of an agent's containers). */
    statusesOf: (ids: readonly string[]) =>
      db.kasm.findMany({ where: { id: { in: [...ids] } }, select: { id: true, status: true } }),

    /** Sessions on the agent whose container should exist (running, paused or stopped). */
    withContainerOn: (agentId: string) =>
      db.kasm.findMany({
        where: { agentId, status: { in: WITH_CONTAINER } },
        select: { id: true, status: true },
      }),

    /** Records that the session's stream carried input from its user (throttled by the caller). */
    recordInput: (id: string, at: Date) =>
      db.kasm.updateMany({ where: { id, status: 'running' }, data: { lastInputAt: at } }),

    /**
     * Running sessions whose workspace sets an idle limit and which had no input (nor keepalive,
     * nor start or resume) for that long, with the workspace's idle action.
     */
    idle: (limit: number) =>
      db.$queryRaw<{ id: string; action: string }[]>`
        SELECT k.id, i.idle_action AS action
          FROM ${table('kasm')} k JOIN ${table('image')} i ON i.id = k.image_id
         WHERE k.status = 'running' AND i.idle_limit_seconds > 0
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
        select: { kasmId: true, secretHash: true, expiresAt: true },
      }),

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
