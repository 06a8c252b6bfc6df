// The users feature's public face: what other features may use of it.
export { createTargetUserResolver } from './target-user';
export { toUserResponse, type UserRow } from './user-row';
export { createUsersRepository, type UsersPage, type UsersRepository } from './users.repository';
export { usersRoutes } from './users.routes';
export { UserSchema } from './users.schemas';
export {
  createUsersService,
  type DirectoryFields,
  type UserRevoked,
  type UserSessionsListing,
  type UsersService,
} from './users.service';
