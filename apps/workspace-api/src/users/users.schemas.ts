import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { KasmSchema } from '../sessions/sessions.schemas';

const Username = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'Trimmed and lower-cased when stored',
});
const Password = Type.String({
  maxLength: 1024,
  description: 'Checked against the password rules',
  // The example in /docs is one a request may really send: it passes the rules.
  examples: ['Correct-Horse-7'],
});
/** Examples `false`: the docs' sample request must not lock or disable the account it makes. */
const AccountFlag = Type.Boolean({ examples: [false] });
const ShortText = Type.String({ maxLength: 64 });
const Notes = Type.String({ maxLength: 2000 });

export const UserSchema = Type.Object({
  user_id: Type.String(),
  username: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  phone: Type.String(),
  organization: Type.String(),
  notes: Type.String(),
  locked: Type.Boolean(),
  disabled: Type.Boolean(),
  realm: Type.String(),
  groups: Type.Array(Type.Object({ group_id: Type.String(), name: Type.String() })),
  created: TimestampSchema,
  last_session: TimestampSchema,
  password_set_date: TimestampSchema,
});
export type UserResponse = Static<typeof UserSchema>;

export const UserEnvelopeSchema = Type.Object({ user: UserSchema });
/** get_user also lists the user's live sessions, as Kasm does. */
export const UserWithKasmsEnvelopeSchema = Type.Object({
  user: Type.Composite([UserSchema, Type.Object({ kasms: Type.Array(KasmSchema) })]),
});

const UserFields = {
  first_name: Type.Optional(ShortText),
  last_name: Type.Optional(ShortText),
  phone: Type.Optional(ShortText),
  organization: Type.Optional(ShortText),
  notes: Type.Optional(Notes),
  locked: Type.Optional(AccountFlag),
  disabled: Type.Optional(AccountFlag),
  password: Type.Optional(Password),
};

export const CreateUserBodySchema = Type.Object({
  target_user: Type.Object({ username: Username, ...UserFields }),
});
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

export const UpdateUserBodySchema = Type.Object({
  target_user: Type.Object({ user_id: IdSchema, username: Type.Optional(Username), ...UserFields }),
});
export type UpdateUserBody = Static<typeof UpdateUserBodySchema>;

export const GetUserBodySchema = Type.Object({
  target_user: Type.Object(
    { user_id: Type.Optional(IdSchema), username: Type.Optional(Username) },
    { description: 'user_id or username' },
  ),
});
export type GetUserBody = Static<typeof GetUserBodySchema>;

export const TargetUserBodySchema = Type.Object({
  target_user: Type.Object({ user_id: IdSchema }),
});
export type TargetUserBody = Static<typeof TargetUserBodySchema>;

export const DeleteUserBodySchema = Type.Object({
  target_user: Type.Object({ user_id: IdSchema }),
  force: Type.Optional(Type.Boolean({ default: false })),
});
export type DeleteUserBody = Static<typeof DeleteUserBodySchema>;

export const USER_FILTER_FIELDS = ['username', 'locked', 'disabled', 'organization'] as const;
export const USER_SORT_FIELDS = [
  'username',
  'created',
  'organization',
  'first_name',
  'last_name',
] as const;

export const GetUsersBodySchema = Type.Object({
  // page × page_size must stay a 32-bit row offset.
  page: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 0,
    description: '0-based page number',
  }),
  page_size: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  filters: Type.Array(
    Type.Object({
      id: Type.Union(USER_FILTER_FIELDS.map((f) => Type.Literal(f))),
      value: Type.Union([Type.String({ maxLength: 255 }), Type.Boolean()]),
    }),
    { default: [], maxItems: 10 },
  ),
  sort_by: Type.Union(
    USER_SORT_FIELDS.map((f) => Type.Literal(f)),
    { default: 'created' },
  ),
  sort_direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }),
  cursor: Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'next_cursor of the previous page (keyset paging; page is ignored)',
    }),
  ),
});
export type GetUsersBody = Static<typeof GetUsersBodySchema>;

export const UsersPageSchema = Type.Object({
  users: Type.Array(UserSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
