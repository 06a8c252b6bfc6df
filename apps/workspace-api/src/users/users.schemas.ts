import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { TargetUserSchema, UsernameSchema } from '../api';

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
/** get_user also lists the user's live sessions, as Kasm does, in the sessions feature's shape. */
export const userWithKasmsEnvelope = (kasm: TSchema) =>
  Type.Object({
    user: Type.Composite([UserSchema, Type.Object({ kasms: Type.Array(kasm) })]),
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
  target_user: Type.Object({ username: UsernameSchema, ...UserFields }),
});
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

/** With user_id, a username is the new one; without, it names the user to change. */
export const UpdateUserBodySchema = Type.Object({
  target_user: Type.Object(
    { user_id: Type.Optional(IdSchema), username: Type.Optional(UsernameSchema), ...UserFields },
    { description: 'user_id (then username renames) or username' },
  ),
});
export type UpdateUserBody = Static<typeof UpdateUserBodySchema>;

export const DeleteUserBodySchema = Type.Object({
  target_user: TargetUserSchema,
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

const UsersFilterSchema = Type.Object({
  id: Type.Union(USER_FILTER_FIELDS.map((f) => Type.Literal(f))),
  value: Type.Union([Type.String({ maxLength: 255 }), Type.Boolean()]),
});
export type UsersFilter = Static<typeof UsersFilterSchema>;
export interface UsersOrder {
  sort_by: (typeof USER_SORT_FIELDS)[number];
  sort_direction: 'asc' | 'desc';
}

/** Without page, page_size and cursor, every user that matches, as Kasm answers. */
export const GetUsersBodySchema = Type.Object({
  // page × page_size must stay a 32-bit row offset.
  page: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      description: '0-based page number (0 when page_size or cursor is given)',
    }),
  ),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      description: '100 when page or cursor is given; without any of the three, every user',
    }),
  ),
  filters: Type.Array(UsersFilterSchema, { default: [], maxItems: 10 }),
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
  page_size: Type.Integer({ description: 'the number of users when every user was asked for' }),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type UsersPage = Static<typeof UsersPageSchema>;
