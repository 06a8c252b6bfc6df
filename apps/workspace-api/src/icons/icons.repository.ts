import type { Database } from '../db';

/** Every query of workspace icons (`image_icon`). */
export function createIconsRepository({ prisma: db }: Database) {
  return {
    /** The stored icon of an installed workspace, when one was fetched. */
    find: (imageId: string) =>
      db.imageIcon.findFirst({
        where: { imageId, data: { not: null } },
        select: { contentType: true, data: true, updatedAt: true },
      }),

    /**
     * Of `imageIds`, those whose icon needs no fetch now: stored, or failed at `retryBefore` or
     * later.
     */
    async settled(imageIds: readonly string[], retryBefore: Date): Promise<Set<string>> {
      const rows = await db.imageIcon.findMany({
        where: {
          imageId: { in: [...imageIds] },
          OR: [{ data: { not: null } }, { fetchedAt: { gte: retryBefore } }],
        },
        select: { imageId: true },
      });
      return new Set(rows.map((row) => row.imageId));
    },

    save: (
      imageId: string,
      row: { sourceUrl: string; contentType: string; data: Uint8Array | null; problem: string },
    ) => {
      const data = {
        ...row,
        data: row.data ? new Uint8Array(row.data) : null,
        fetchedAt: new Date(),
      };
      return db.imageIcon.upsert({
        where: { imageId },
        create: { imageId, ...data },
        update: data,
      });
    },
  };
}
export type IconsRepository = ReturnType<typeof createIconsRepository>;
