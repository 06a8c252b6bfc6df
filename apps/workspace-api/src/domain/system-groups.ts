import { toUuid } from '@platform/schemas';

/** Created by the first migration with Kasm's fixed id; every user is a member. */
export const ALL_USERS_GROUP_ID = toUuid('68d557ac4cac42cca9f31c7c853de0f3');
export const ADMINISTRATORS_GROUP_ID = toUuid('b578d8e34b3f4a4b8a4f2d2a4c6bb1a1');
