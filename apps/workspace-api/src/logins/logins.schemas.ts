import { Type } from '@sinclair/typebox';
import { UserSchema } from '../users';

export const AuthenticateBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const LoginSchema = Type.Object({
  token: Type.String({ description: 'Login session token; shown once' }),
  user: UserSchema,
});

export const LoginLinkSchema = Type.Object({
  url: Type.String({
    description: 'Opens the web page signed in as the user; works once, for LOGIN_LINK_TTL_SECONDS',
  }),
});
