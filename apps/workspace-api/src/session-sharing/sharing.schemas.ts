import { Type, type Static } from '@sinclair/typebox';
import { IdSchema } from '@platform/schemas';

const Role = Type.Union([Type.Literal('view'), Type.Literal('control')], {
  description:
    'view: the screen only, every input dropped by the proxy; control: keys, pointer, clipboard',
});

/** What a new share link is: its role, how long it lives, how often and by whom it may be used. */
export const NewShareSchema = Type.Object({
  role: Role,
  expires_in_seconds: Type.Optional(
    Type.Integer({
      minimum: 60,
      maximum: 7 * 24 * 3600,
      description: 'Default 3600; never past the session’s time limit',
    }),
  ),
  one_use: Type.Optional(Type.Boolean({ description: 'Admits one browser, then answers 403' })),
  user_ids: Type.Optional(
    Type.Array(IdSchema, { maxItems: 100, description: 'Only these users, signed in, may join' }),
  ),
  group_ids: Type.Optional(
    Type.Array(IdSchema, { maxItems: 100, description: 'Only members of these groups may join' }),
  ),
});
export type NewShare = Static<typeof NewShareSchema>;

export const CreateShareBodySchema = Type.Intersect([
  Type.Object({ kasm_id: IdSchema }),
  NewShareSchema,
]);
export type CreateShareBody = Static<typeof CreateShareBodySchema>;

export const ShareSchema = Type.Object({
  share_id: Type.String(),
  kasm_id: Type.String(),
  role: Type.String(),
  expiration_date: Type.String({ format: 'date-time' }),
  one_use: Type.Boolean(),
  uses: Type.Integer(),
  user_ids: Type.Array(Type.String()),
  group_ids: Type.Array(Type.String()),
  created_by: Type.String(),
  created_date: Type.String({ format: 'date-time' }),
});
export type ShareResponse = Static<typeof ShareSchema>;

export const CreatedShareSchema = Type.Object({
  share: ShareSchema,
  url: Type.String({ description: 'The link: its secret is shown only now' }),
});

export const SharesSchema = Type.Object({ shares: Type.Array(ShareSchema) });

export const ParticipantSchema = Type.Object({
  participant_id: Type.String(),
  role: Type.String({ description: 'view, control, or watch (an administrator)' }),
  user_id: Type.Union([Type.String(), Type.Null()], { description: 'Null: anonymous' }),
  username: Type.String(),
  share_id: Type.Union([Type.String(), Type.Null()]),
  joined_date: Type.String({ format: 'date-time' }),
});
export const ParticipantsSchema = Type.Object({ participants: Type.Array(ParticipantSchema) });

export const KasmShareBodySchema = Type.Object({ kasm_id: IdSchema, share_id: IdSchema });
export const KasmOnlyBodySchema = Type.Object({ kasm_id: IdSchema });
export const ParticipantBodySchema = Type.Object({ kasm_id: IdSchema, participant_id: IdSchema });
export const ParticipantRoleBodySchema = Type.Object({
  kasm_id: IdSchema,
  participant_id: IdSchema,
  role: Role,
});

export const JoinKasmBodySchema = Type.Object({
  share_id: Type.String({ minLength: 1, maxLength: 64, description: 'request_kasm’s share_id' }),
  user_id: Type.Optional(
    Type.Union([IdSchema, Type.Null()], {
      description: 'The joiner; absent: anonymous, where the workspace allows it',
    }),
  ),
});
export const JoinKasmResponseSchema = Type.Object({
  kasm_id: Type.String(),
  kasm_url: Type.String({ description: 'Opens the session for the joiner (one use)' }),
  role: Type.String(),
});

export const PanelParamsSchema = Type.Object({ kasmId: IdSchema });
export const PanelItemParamsSchema = Type.Object({ kasmId: IdSchema, id: IdSchema });
export const PanelRoleBodySchema = Type.Object({ role: Role });

/** What a session page may do and whom its owner is told of: the grant's role, the watchers. */
export const PageStandingSchema = Type.Object({
  role: Type.String({ description: 'owner, view, control, or watch (an administrator)' }),
  watchers: Type.Array(
    Type.Object({ username: Type.String(), since: Type.String({ format: 'date-time' }) }),
    {
      description:
        "Administrators watching: the owner's notice (empty for joiners, or where the workspace turns it off)",
    },
  ),
});
