import { qualified, runStatement, type Database } from '../db';
import type { FeedAddress } from '../generated/prisma/client';

export type { FeedAddress };

export interface NewFeedAddress {
  name: string;
  secretHash: string;
  type: string | null;
  period: string | null;
}

/**
 * Every query of feed_address. The lookup behind every calendar app's poll runs prepared on
 * the pool; the rest through Prisma.
 */
export function createFeedAddressesRepository(db: Database) {
  const addresses = db.prisma.feedAddress;
  const bySecretHash = {
    name: 'feed_addresses_find_by_secret_hash',
    text: `SELECT id, name, secret_hash AS "secretHash", type, period, rotated_at AS "rotatedAt",
             created_at AS "createdAt", updated_at AS "updatedAt"
           FROM ${qualified(db.schema, 'feed_address')} WHERE secret_hash = $1`,
  };
  return {
    create: (data: NewFeedAddress) => addresses.create({ data }),
    async findBySecretHash(secretHash: string): Promise<FeedAddress | null> {
      const [row] = await runStatement<FeedAddress>(db, { ...bySecretHash, values: [secretHash] });
      return row ?? null;
    },
    list: () => addresses.findMany({ orderBy: { id: 'asc' } }),

    /** One statement: the old secret stops matching the moment it commits. Null: no such id. */
    async replaceSecret(id: number, secretHash: string): Promise<FeedAddress | null> {
      const [row] = await addresses.updateManyAndReturn({
        where: { id },
        data: { secretHash, rotatedAt: new Date() },
      });
      return row ?? null;
    },
    /** The address as it was, or null when no address has that id. */
    async remove(id: number): Promise<FeedAddress | null> {
      const found = await addresses.findUnique({ where: { id } });
      if (found) await addresses.deleteMany({ where: { id } });
      return found;
    },
  };
}
