import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { PermissionSchema, PERMISSIONS } from '../api-keys';
import { UserSchema } from '../users';

const GroupName = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'Unique; trimmed when stored',
});
const Description = Type.String({ maxLength: 2000 });
const Permissions = Type.Array(PermissionSchema, {
  maxItems: PERMISSIONS.length,
  uniqueItems: true,
  description:
    "From the API keys' catalogue; members hold the union of their groups'. Changing them needs the permissions granted or taken away (global_admin holds all)",
});
const PRIORITY = { minimum: 1, maximum: 4095, description: 'Lower wins when group settings clash' };
const MaxKasms = Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 }), Type.Null()], {
  description:
    'Live sessions a member may hold; the highest-priority group that sets it wins (none set: 2)',
});

const refusal = (what: string) =>
  Type.Boolean({
    description: `false refuses members ${what} whatever their workspace allows; true leaves it to the workspace and their other groups (Kasm's group setting of this name)`,
  });
/** Kasm's group settings for transfers: each may only take away what a workspace allows. */
const TRANSFER_RIGHTS = {
  allow_kasm_clipboard_up: refusal('clipboard text from the browser into the desktop'),
  allow_kasm_clipboard_down: refusal('clipboard text out of the desktop to the browser'),
  allow_kasm_uploads: refusal('uploads into ~/Uploads'),
  allow_kasm_downloads: refusal('downloads from ~/Downloads'),
  record_sessions: Type.Boolean({
    description:
      "true records members' sessions whatever their workspace says (docs/recording.md); false leaves it to the workspace",
  }),
};
const SharedFullControl = Type.Boolean({
    description:
      "Kasm's group setting: true makes joiners of members' shared sessions (join_kasm) controllers; false (default) viewers",
  });
const OPTIONAL_RIGHTS = {
  shared_session_full_control: Type.Optional(SharedFullControl),
  allow_kasm_clipboard_up: Type.Optional(TRANSFER_RIGHTS.allow_kasm_clipboard_up),
  allow_kasm_clipboard_down: Type.Optional(TRANSFER_RIGHTS.allow_kasm_clipboard_down),
  allow_kasm_uploads: Type.Optional(TRANSFER_RIGHTS.allow_kasm_uploads),
  allow_kasm_downloads: Type.Optional(TRANSFER_RIGHTS.allow_kasm_downloads),
  record_sessions: Type.Optional(TRANSFER_RIGHTS.record_sessions),
};

export const GroupSchema = Type.Object({
  group_id: Type.String(),
  name: Type.String(),
  shared_session_full_control: SharedFullControl,
  description: Type.String(),
  priority: Type.Integer(),
  max_kasms_per_user: Type.Union([Type.Integer(), Type.Null()]),
  is_system: Type.Boolean(),
  permissions: Type.Array(Type.String()),
  ...TRANSFER_RIGHTS,
  created: TimestampSchema,
});
export type GroupResponse = Static<typeof GroupSchema>;

export const GroupEnvelopeSchema = Type.Object({ group: GroupSchema });
export const GroupsSchema = Type.Object({ groups: Type.Array(GroupSchema) });

const TargetGroup = Type.Object({ group_id: IdSchema });

export const CreateGroupBodySchema = Type.Object({
  target_group: Type.Object({
    name: GroupName,
    description: Type.Optional(Description),
    priority: Type.Optional(Type.Integer({ ...PRIORITY, default: 100 })),
    max_kasms_per_user: Type.Optional(MaxKasms),
    permissions: Type.Optional(Permissions),
    ...OPTIONAL_RIGHTS,
  }),
});
export type CreateGroupInput = Static<typeof CreateGroupBodySchema>['target_group'];

export const UpdateGroupBodySchema = Type.Object({
  target_group: Type.Object({
    group_id: IdSchema,
    name: Type.Optional(GroupName),
    description: Type.Optional(Description),
    priority: Type.Optional(Type.Integer(PRIORITY)),
    max_kasms_per_user: Type.Optional(MaxKasms),
    permissions: Type.Optional(Permissions),
    ...OPTIONAL_RIGHTS,
  }),
});
export type UpdateGroupInput = Static<typeof UpdateGroupBodySchema>['target_group'];

export const TargetGroupBodySchema = Type.Object({ target_group: TargetGroup });

export const DeleteGroupBodySchema = Type.Object({
  target_group: TargetGroup,
  force: Type.Optional(
    Type.Boolean({ default: false, description: 'Needed when the group has members' }),
  ),
});

export const GetUsersGroupBodySchema = Type.Object({
  target_group: TargetGroup,
  // page × page_size must stay a 32-bit row offset.
  page: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 0,
    description: '0-based page number',
  }),
  page_size: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});
export type GetUsersGroupBody = Static<typeof GetUsersGroupBodySchema>;

export const GroupUsersPageSchema = Type.Object({
  users: Type.Array(UserSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});

export const GroupImageBodySchema = Type.Object({
  target_group: TargetGroup,
  target_image: Type.Object({ image_id: IdSchema }),
});
