// The groups feature's public face: what other features may use of it.
export { groupImagesRoutes } from './group-images.routes';
export { toGroupResponse, toGroupSnapshot } from './group-response';
export { createGroupImagesService, type GroupImagesService } from './group-images.service';
export { createGroupsRepository, type GroupRow, type GroupsRepository } from './groups.repository';
export { groupsRoutes } from './groups.routes';
export { createGroupsService, type GroupsService } from './groups.service';
export { membershipsRoutes } from './memberships.routes';
export { createMembershipsService, type MembershipsService } from './memberships.service';
export { GROUP_POLICY_SWITCHES, type GroupPolicy, groupPolicySchemas } from './group-policy-fields';
