import type { AuditedTransaction, Database, Tx } from '../db';
import type { UserAttributes } from '../generated/prisma/client';

/** A user's stored attributes. */
export type AttributesRow = UserAttributes;

/** What a change sets; absent fields are left alone. */
export type AttributesChange = Partial<Omit<AttributesRow, 'userId' | 'createdAt' | 'updatedAt'>>;

/** Every query of user attributes. */
export function createAttributesRepository(database: Database) {
  const db = database.prisma;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    find: (userId: string, tx?: Tx): Promise<AttributesRow | null> =>
      (tx ?? db).userAttributes.findUnique({ where: { userId } }),

    /** Creates the row with the defaults on the first change. */
    upsert: (userId: string, data: AttributesChange, tx?: Tx): Promise<AttributesRow> =>
      (tx ?? db).userAttributes.upsert({
        where: { userId },
        create: { ...data, userId },
        update: data,
      }),
  };
}
export type AttributesRepository = ReturnType<typeof createAttributesRepository>;
