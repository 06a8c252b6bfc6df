import type { Database } from '../db';
import type { Prisma, UserAttributes } from '../generated/prisma/client';

/** Every query of user attributes. */
export function createAttributesRepository({ prisma: db }: Database) {
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
  };
}
export type AttributesRepository = ReturnType<typeof createAttributesRepository>;
