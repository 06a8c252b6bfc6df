import type { Database } from '../db';
import type { UserAttributes } from '../generated/prisma/client';

/** A user's stored attributes. */
export type AttributesRow = UserAttributes;

/** What a change sets; absent fields are left alone. */
export type AttributesChange = Partial<Omit<AttributesRow, 'userId' | 'createdAt' | 'updatedAt'>>;

/** Every query of user attributes. */
export function createAttributesRepository({ prisma: db }: Database) {
  return {
    find: (userId: string): Promise<AttributesRow | null> =>
      db.userAttributes.findUnique({ where: { userId } }),

    /** Creates the row with the defaults on the first change. */
    upsert: (userId: string, data: AttributesChange): Promise<AttributesRow> =>
      db.userAttributes.upsert({ where: { userId }, create: { ...data, userId }, update: data }),
  };
}
export type AttributesRepository = ReturnType<typeof createAttributesRepository>;
