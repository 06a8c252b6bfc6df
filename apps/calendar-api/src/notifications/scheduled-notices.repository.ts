import { qualified, type Database, type Tx } from '../db';
import { Prisma } from '../generated/prisma/client';

export type NoticeKind = 'digest' | 'reminder';

/** Every query of scheduled_notice: the claims that make each digest and reminder go out once. */
export function createScheduledNoticesRepository(db: Database) {
  const table = Prisma.raw(qualified(db.schema, 'scheduled_notice'));
  return {
    /**
     * Claims each of `occurrences` of `kind` for each of `targets`; answers the pairs this call
     * claimed. Of concurrent claims the unique index lets one through per pair, and a claim taken
     * before (another replica, an earlier process) is never taken again.
     */
    async claim(
      tx: Tx,
      notice: { kind: NoticeKind; occurrences: string[]; sent: boolean },
      targets: string[],
    ): Promise<{ target: string; occurrence: string }[]> {
      return tx.$queryRaw<{ target: string; occurrence: string }[]>`
        INSERT INTO ${table} (kind, target, occurrence, sent, updated_at)
        SELECT ${notice.kind}, t.target, o.occurrence, ${notice.sent}, now()
          FROM unnest(${targets}::text[]) AS t(target)
         CROSS JOIN unnest(${notice.occurrences}::text[]) AS o(occurrence)
        ON CONFLICT (kind, target, occurrence) DO NOTHING
        RETURNING target, occurrence`;
    },
  };
}
