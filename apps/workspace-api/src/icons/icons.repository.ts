import type { Database } from '../db';

/** Every query of workspace icons. */
export function createIconsRepository({ prisma: db }: Database) {
  return {
    /** The stored icon of an installed workspace, when one was fetched. */
    find: (imageId: string) =>
      db.imageIcon.findFirst({
        where: { imageId, data: { not: null } },
        select: { contentType: true, data: true, updatedAt: true },
      }),

    /**
     * Installed workspaces from a registry whose icon is not stored yet, or whose last fetch
     * failed before `retryBefore`.
     */
    due: (retryBefore: Date, limit: number) =>
      db.image.findMany({
        where: {
          registryId: { not: null },
          imageSrc: { not: '' },
          OR: [{ icon: null }, { icon: { data: null, fetchedAt: { lt: retryBefore } } }],
        },
        select: {
          id: true,
          imageSrc: true,
          registry: { select: { url: true, schemaVersion: true } },
        },
        take: limit,
      }),

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
