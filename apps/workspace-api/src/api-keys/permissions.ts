export const PERMISSIONS = [
  'global_admin',
  'users.view',
  'users.create',
  'users.modify',
  'users.delete',
  'users.auth_session',
  'sessions.view',
  'sessions.modify',
  'sessions.delete',
  'groups.view',
  'groups.create',
  'groups.modify',
  'groups.delete',
  'images.view',
  'images.modify',
  'registries.modify',
  'settings.view',
  'settings.modify',
  'api_keys.modify',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface KeyGrant {
  permissions: readonly string[];
  readOnly: boolean;
}

/** View operations are the only ones a read-only key may call. */
export function isViewPermission(permission: Permission): boolean {
  return permission.endsWith('.view');
}

/** Why the key may not perform an operation needing `required`, or null when it may. */
export function denialReason(key: KeyGrant, required: Permission): string | null {
  if (key.readOnly && !isViewPermission(required)) return 'This API key is read-only';
  if (key.permissions.includes('global_admin') || key.permissions.includes(required)) return null;
  return `This API key lacks the ${required} permission`;
}
