import type { Database } from '../db';

/** Where this installation's identity is read: the one row its first migration made. */
export interface InstallationSource {
  id(): Promise<string>;
}

const FIRST = {
  select: { id: true },
  orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
};

/**
 * The `installation` table's queries. The id never changes, so it is read once; a failed read
 * (the database away) is not kept, and the next call asks again. A table emptied by hand gets a
 * new row: replicas that race to make it all take the oldest.
 */
export function createInstallationRepository(database: Database): InstallationSource {
  const { installation } = database.prisma;
  let read: Promise<string> | undefined;
  async function readOrMake(): Promise<string> {
    const row = await installation.findFirst(FIRST);
    if (row) return row.id;
    await installation.create({ data: {} });
    return (await installation.findFirstOrThrow(FIRST)).id;
  }
  return {
    id() {
      read ??= readOrMake().catch((error: unknown) => {
        read = undefined;
        throw error;
      });
      return read;
    },
  };
}
