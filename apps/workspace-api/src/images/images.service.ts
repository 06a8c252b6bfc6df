import { withFieldErrors } from '@platform/errors';
import { toUuid, toWireId } from '@platform/schemas';
import type { Db } from '../db';
import { ImageNotFoundError, ProfilePathInvalidError } from '../errors';
import type { Image, Prisma } from '../generated/prisma/client';
import { decideAccess } from './access';
import type { UpdateImageInput } from './images.schemas';
import { profilePathProblems } from './profile-path';
import type { TargetUser } from '../users';

const BY_NAME = [
  { friendlyName: 'asc' },
  { id: 'asc' },
] satisfies Prisma.ImageOrderByWithRelationInput[];

const isRecordNotFound = (error: unknown) => (error as { code?: string } | null)?.code === 'P2025';

export interface AccessAnswer {
  allowed: boolean;
  reason: string;
  groups: { group_id: string; name: string }[];
}

/** What images need of the users feature: its one resolver of `target_user`. */
export interface ImageUsers {
  find(target: TargetUser): Promise<{ id: string }>;
}

export function createImagesService({ db, users }: { db: Db; users: ImageUsers }) {
  const requireUser = async (target: TargetUser) => (await users.find(target)).id;

  return {
    list: (): Promise<Image[]> => db.image.findMany({ orderBy: BY_NAME }),

    async find(imageId: string): Promise<Image> {
      const image = await db.image.findUnique({ where: { id: toUuid(imageId) } });
      if (!image) throw new ImageNotFoundError(`image_id ${imageId}`);
      return image;
    },

    /** Only the fields present change. */
    async update(input: UpdateImageInput): Promise<Image> {
      const path = input.persistent_profile_path;
      const problems = path === undefined ? [] : profilePathProblems(path);
      if (problems.length > 0) {
        throw withFieldErrors(
          new ProfilePathInvalidError(),
          problems.map((message) => ({ field: 'target_image.persistent_profile_path', message })),
        );
      }
      const friendlyName = input.friendly_name?.trim();
      const data: Prisma.ImageUpdateInput = {
        enabled: input.enabled,
        friendlyName,
        cores: input.cores,
        memory: input.memory === undefined ? undefined : BigInt(input.memory),
        persistentProfilePath: path,
      };
      return db.image
        .update({ where: { id: toUuid(input.image_id) }, data })
        .catch((error: unknown) => {
          throw isRecordNotFound(error)
            ? new ImageNotFoundError(`image_id ${input.image_id}`)
            : error;
        });
    },

    /** Group lists lose it through the foreign key's cascade. */
    async remove(imageId: string): Promise<void> {
      const { count } = await db.image.deleteMany({ where: { id: toUuid(imageId) } });
      if (count === 0) throw new ImageNotFoundError(`image_id ${imageId}`);
    },

    /** Exactly the workspaces the user may use: enabled, and on the list of one of their groups. */
    async allowedFor(target: TargetUser): Promise<Image[]> {
      const id = await requireUser(target);
      return db.image.findMany({
        where: { enabled: true, groups: { some: { group: { users: { some: { userId: id } } } } } },
        orderBy: BY_NAME,
      });
    },

    async checkAccess(target: TargetUser, imageId: string): Promise<AccessAnswer> {
      const id = await requireUser(target);
      const image = await db.image.findUnique({
        where: { id: toUuid(imageId) },
        select: {
          enabled: true,
          groups: {
            where: { group: { users: { some: { userId: id } } } },
            select: { group: { select: { id: true, name: true } } },
            orderBy: [{ group: { priority: 'asc' } }, { group: { name: 'asc' } }],
          },
        },
      });
      if (!image) throw new ImageNotFoundError(`image_id ${imageId}`);
      const groups = image.groups.map(({ group }) => group);
      const decision = decideAccess({ enabled: image.enabled, grantingGroups: groups });
      return {
        ...decision,
        groups: groups.map((g) => ({ group_id: toWireId(g.id), name: g.name })),
      };
    },
  };
}
export type ImagesService = ReturnType<typeof createImagesService>;
