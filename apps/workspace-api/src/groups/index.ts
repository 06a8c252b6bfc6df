// The groups feature's public face: what other features may use of it.
export { groupImagesRoutes } from './group-images.routes';
export { toGroupResponse } from './group-response';
export { createGroupImagesService } from './group-images.service';
export { createGroupsRepository, type GroupsRepository } from './groups.repository';
export { groupsRoutes } from './groups.routes';
export { createGroupsService } from './groups.service';
export { membershipsRoutes } from './memberships.routes';
export { createMembershipsService } from './memberships.service';
