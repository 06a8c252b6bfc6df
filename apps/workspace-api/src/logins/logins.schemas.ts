import { Type } from '@sinclair/typebox';
import { UserSchema } from '../users/users.schemas';

export const AuthenticateBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const LoginSchema = Type.Object({
  token: Type.String({ description: 'Login session token; shown once' }),
  user: UserSchema,
});
