import { toUuid, toWireId } from '@platform/schemas';
import { isForeignKeyViolation, recordedChange, type AuditRecorder, type Tx } from '../db';
import { ImageNotFoundError } from '../errors';
import type { AttributesRepository, AttributesRow } from './attributes.repository';
import type { AttributesResponse, UpdateAttributesInput } from './attributes.schemas';
import type { TargetUser } from '../api';

/** What a user without a row of attributes has (the table's defaults). */
const DEFAULTS: Omit<AttributesRow, 'userId' | 'createdAt' | 'updatedAt'> = {
  defaultImageId: null,
  showTips: true,
  autoLoginKasm: false,
  toggleControlPanel: true,
  theme: 'Light',
  chatSfx: true,
  sshPublicKey: '',
  preferredLanguage: '',
  preferredTimezone: '',
};

function toResponse(userId: string, row: Partial<AttributesRow> | null): AttributesResponse {
  const a = { ...DEFAULTS, ...row };
  return {
    user_id: toWireId(userId),
    default_image: a.defaultImageId && toWireId(a.defaultImageId),
    show_tips: a.showTips,
    auto_login_kasm: a.autoLoginKasm,
    toggle_control_panel: a.toggleControlPanel,
    theme: a.theme,
    chat_sfx: a.chatSfx,
    ssh_public_key: a.sshPublicKey,
    preferred_language: a.preferredLanguage,
    preferred_timezone: a.preferredTimezone,
  };
}

const given = <T>(value: T | null | undefined) => (value === null ? undefined : value);

/** What attributes need of the users feature: its one resolver of `target_user`. */
export interface AttributeUsers {
  find(target: TargetUser): Promise<{ id: string }>;
}

export function createAttributesService({
  rows,
  users,
}: {
  rows: AttributesRepository;
  users: AttributeUsers;
}) {
  return {
    async get(target: TargetUser): Promise<AttributesResponse> {
      const { id } = await users.find(target);
      return toResponse(id, await rows.find(id));
    },

    /**
     * Only the fields given change; `default_image: ""` clears the default workspace. With
     * `audit`, the API's event is written in the change's transaction.
     */
    async update(
      input: UpdateAttributesInput,
      audit?: AuditRecorder | null,
    ): Promise<AttributesResponse> {
      const { id } = await users.find({ user_id: input.user_id });
      const image = given(input.default_image);
      const data = {
        defaultImageId: image === undefined ? undefined : image === '' ? null : toUuid(image),
        showTips: given(input.show_tips),
        autoLoginKasm: given(input.auto_login_kasm),
        toggleControlPanel: given(input.toggle_control_panel),
        theme: given(input.theme),
        chatSfx: given(input.chat_sfx),
        sshPublicKey: given(input.ssh_public_key),
        preferredLanguage: given(input.preferred_language),
        preferredTimezone: given(input.preferred_timezone),
      };
      // The image's existence is the foreign key's to decide; the user was just checked.
      const row = await recordedChange(rows.transaction, audit, {
        before: async (tx: Tx) => toResponse(id, await rows.find(id, tx)),
        change: (tx) => rows.upsert(id, data, tx),
        after: (_tx, changed) => toResponse(id, changed),
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) {
          throw new ImageNotFoundError(`image_id ${input.default_image}`);
        }
        throw error;
      });
      return toResponse(id, row);
    },

    /** The wire id of the user's default workspace, or null. */
    async defaultImageOf(userId: string): Promise<string | null> {
      const row = await rows.find(toUuid(userId));
      return row?.defaultImageId ? toWireId(row.defaultImageId) : null;
    },
  };
}
export type AttributesService = ReturnType<typeof createAttributesService>;
