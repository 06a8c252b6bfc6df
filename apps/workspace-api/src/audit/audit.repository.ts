import { Prisma, type AuditEvent } from '../generated/prisma/client';
import type { Database, Tx } from '../db';

export type AuditEventRow = AuditEvent;
export type NewAuditEventRow = Omit<AuditEvent, 'id' | 'createdAt' | 'before' | 'after'> & {
  /** Chosen by the caller when it must know the row (an API write's recorder), else generated. */
  id?: string;
  before: unknown;
  after: unknown;
};

/** Which events: every field present must match; `since` inclusive, `until` exclusive. */
export interface AuditSelection {
  actorKind?: string;
  actorId?: string;
  operation?: string;
  targetType?: string;
  targetId?: string;
  channel?: string;
  result?: string;
  since?: Date;
  until?: Date;
}

/** Newest first: `limit` rows from `offset`, or after the (createdAt, id) of the last row seen. */
export interface AuditPageQuery {
  selection: AuditSelection;
  offset: number;
  limit: number;
  after?: { createdAt: Date; id: string };
}

const json = (value: unknown) =>
  value === null || value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue);

function where({ since, until, ...equal }: AuditSelection): Prisma.AuditEventWhereInput {
  const createdAt = since || until ? { gte: since, lt: until } : undefined;
  return { ...equal, createdAt };
}

/** Every query of the audit trail (`audit_event`): rows are only inserted and read. */
export function createAuditRepository({ prisma }: Database) {
  return {
    /** In `tx` when given: the event commits or rolls back with the change it records. */
    insert: (row: NewAuditEventRow, tx?: Tx) =>
      (tx ?? prisma).auditEvent.create({
        data: { ...row, before: json(row.before), after: json(row.after) },
        select: { id: true },
      }),

    /** Whether a user of this username was deleted, as far as the trail remembers. */
    async usernameDeleted(username: string): Promise<boolean> {
      const found = await prisma.auditEvent.findFirst({
        where: {
          operation: 'delete_user',
          result: 'success',
          targetType: 'user',
          before: { path: ['username'], equals: username },
        },
        select: { id: true },
      });
      return found !== null;
    },

    async page(query: AuditPageQuery): Promise<{ rows: AuditEventRow[]; total: number }> {
      const selected = where(query.selection);
      const after = query.after;
      // Keyset: strictly older than the last row seen, ties on createdAt broken by id.
      const keyset: Prisma.AuditEventWhereInput = after
        ? {
            OR: [
              { createdAt: { lt: after.createdAt } },
              { createdAt: after.createdAt, id: { lt: after.id } },
            ],
          }
        : {};
      const [rows, total] = await Promise.all([
        prisma.auditEvent.findMany({
          where: { AND: [selected, keyset] },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: after ? 0 : query.offset,
          take: query.limit,
        }),
        prisma.auditEvent.count({ where: selected }),
      ]);
      return { rows, total };
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
