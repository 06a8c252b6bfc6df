import type { Db } from '../db';
import type { Prisma, UserAttributes } from '../generated/prisma/client';

/** Every query of user attributes. */
export function createAttributesRepository(db: Db) {
  return {
    find: (userId: string): Promise<UserAttributes | null> =>
      db.userAttributes.findUnique({ where: { userId } }),

    /** Creates the row with the defaults on the first change. */
    upsert: (userId: string, data: Prisma.UserAttributesUncheckedUpdateInput) =>
      db.userAttributes.upsert({
        where: { userId },
        create: { ...(data as Prisma.UserAttributesUncheckedCreateInput), userId },
        update: data,
      }),

    userExists: async (userId: string) => (await db.user.count({ where: { id: userId } })) > 0,
  };
}
export type AttributesRepository = ReturnType<typeof createAttributesRepository>;
