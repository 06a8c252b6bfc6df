import { withFieldErrors } from '@platform/errors';
import { toUuid, toWireId } from '@platform/schemas';
import { recordedRemoval, recordedUpdate, type AuditRecorder, type Tx } from '../db';
import { ForbiddenError, ImageNotFoundError, ProfilePathInvalidError } from '../errors';
import { holds, type KeyGrant } from '../api-keys';
import { decideAccess } from './access';
import { toImageResponse } from './image-response';
import type { ImageRow, ImagesRepository } from './images.repository';
import type { UpdateImageInput } from './images.schemas';
import { profilePathProblems } from './profile-path';
import type { TargetUser } from '../api';

export interface AccessAnswer {
  allowed: boolean;
  reason: string;
  groups: { group_id: string; name: string }[];
}

/** What images need of the users feature: its one resolver of `target_user`. */
export interface ImageUsers {
  find(target: TargetUser): Promise<{ id: string }>;
}

/** What images need of the groups feature: the Allowed Workspaces of a user's groups. */
export interface ImageGrants {
  /** The workspaces on the list of any of the user's groups. */
  imageIdsAllowedFor(userId: string): Promise<string[]>;
  /** The user's groups whose Allowed Workspaces hold `imageId`. */
  granting(imageId: string, userId: string): Promise<{ id: string; name: string }[]>;
}

/** The permissions of which one lets a caller turn on allow_root_exec or allow_plain_http. */
const ALLOWANCE_PERMISSIONS = ['global_admin', 'settings.modify'] as const;

function assertMayAllow(input: UpdateImageInput, grantor: KeyGrant | undefined): void {
  const allowing = input.allow_root_exec === true || input.allow_plain_http === true;
  if (!grantor || !allowing || ALLOWANCE_PERMISSIONS.some((p) => holds(grantor, p))) return;
  throw new ForbiddenError(
    'Allowing root commands or plain HTTP needs the global_admin or settings.modify permission',
  );
}

export function createImagesService({
  images,
  users,
  groups,
}: {
  images: ImagesRepository;
  users: ImageUsers;
  /** Which workspaces the user's groups list. */
  groups: ImageGrants;
}) {
  const requireUser = async (target: TargetUser) => (await users.find(target)).id;
  /** The workspace as get_images answers it, read in `tx`: its audit snapshot. */
  const snapshot = (id: string) => async (tx: Tx) => {
    const image = await images.find(id, tx);
    return image && toImageResponse(image);
  };
  const notFound = (imageId: string) => new ImageNotFoundError(`image_id ${imageId}`);

  return {
    list: (): Promise<ImageRow[]> => images.list(),

    async find(imageId: string): Promise<ImageRow> {
      const image = await images.find(toUuid(imageId));
      if (!image) throw new ImageNotFoundError(`image_id ${imageId}`);
      return image;
    },

    /**
     * Only the fields present change. Allowing root commands or plain HTTP loosens the host's
     * guard, not just the workspace: it needs global_admin or settings.modify of `grantor`, not
     * only images.modify (turning an allowance off needs no more). With `audit` (here and in
     * remove), the API's event is written in the change's transaction.
     */
    async update(
      input: UpdateImageInput,
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<ImageRow> {
      assertMayAllow(input, grantor);
      const path = input.persistent_profile_path;
      const problems = path === undefined ? [] : profilePathProblems(path);
      if (problems.length > 0) {
        throw withFieldErrors(
          new ProfilePathInvalidError(),
          problems.map((message) => ({ field: 'target_image.persistent_profile_path', message })),
        );
      }
      const id = toUuid(input.image_id);
      const change = {
        enabled: input.enabled,
        friendlyName: input.friendly_name?.trim(),
        cores: input.cores,
        memory: input.memory,
        persistentProfilePath: path,
        allowRootExec: input.allow_root_exec,
        allowPlainHttp: input.allow_plain_http,
        // 0 lifts the limit, as Kasm's forms take it.
        idleLimitSeconds:
          input.idle_limit_seconds === undefined ? undefined : input.idle_limit_seconds || null,
        idleAction: input.idle_action,
        allowUploads: input.allow_kasm_uploads,
        allowDownloads: input.allow_kasm_downloads,
        maxUploadBytes:
          input.max_upload_bytes === undefined || input.max_upload_bytes === null
            ? input.max_upload_bytes
            : BigInt(input.max_upload_bytes),
        allowClipboardUp: input.allow_kasm_clipboard_up,
        allowClipboardDown: input.allow_kasm_clipboard_down,
        allowAnonymousJoin: input.allow_anonymous_join,
        watchNotice: input.watch_notice,
        maxClipboardBytes: input.max_clipboard_bytes,
        allowAudio: input.allow_kasm_audio,
        recordSessions: input.record_sessions,
        recordKeystrokes: input.record_keystrokes,
        refuseUnrecorded: input.refuse_unrecorded,
        recordingRetentionDays: input.recording_retention_days,
      };
      return recordedUpdate(images.transaction, audit, snapshot(id), async (tx) => {
        const image = await images.update(id, change, tx);
        if (!image) throw notFound(input.image_id);
        return image;
      });
    },

    /** Group lists lose it through the foreign key's cascade. */
    async remove(imageId: string, audit?: AuditRecorder | null): Promise<void> {
      const id = toUuid(imageId);
      await recordedRemoval(
        images.transaction,
        audit,
        snapshot(id),
        (tx) => images.remove(id, tx),
        () => notFound(imageId),
      );
    },

    /** Exactly the workspaces the user may use: enabled, and on the list of one of their groups. */
    async allowedFor(target: TargetUser): Promise<ImageRow[]> {
      return images.among(await groups.imageIdsAllowedFor(await requireUser(target)), true);
    },

    async checkAccess(target: TargetUser, imageId: string): Promise<AccessAnswer> {
      const userId = await requireUser(target);
      const id = toUuid(imageId);
      const [image, granting] = await Promise.all([images.find(id), groups.granting(id, userId)]);
      if (!image) throw new ImageNotFoundError(`image_id ${imageId}`);
      const decision = decideAccess({ enabled: image.enabled, grantingGroups: granting });
      return {
        ...decision,
        groups: granting.map((g) => ({ group_id: toWireId(g.id), name: g.name })),
      };
    },
  };
}
export type ImagesService = ReturnType<typeof createImagesService>;
