// The users feature's public face: what other features may use of it.
export { createTargetUserResolver, type TargetUserResolver } from './target-user';
export { toUserResponse, type UserRow } from './user-row';
export {
  TargetUserBodySchema,
  TargetUserSchema,
  UserSchema,
  type TargetUser,
} from './users.schemas';
export type { UsersService } from './users.service';
