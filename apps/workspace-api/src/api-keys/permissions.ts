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
  'sessions.drive',
  'sessions.screen',
  'sessions.watch',
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
  'audit.view',
  'recordings.view',
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

/** Those of `permissions` that `key` does not hold, each once, in order; none for global_admin. */
export function permissionsLacking(key: KeyGrant, permissions: readonly string[]): string[] {
  if (holdsAll(key)) return [];
  return [...new Set(permissions)].filter((p) => !key.permissions.includes(p));
}

/** Whether the key holds every permission (global_admin): nothing it acts on can outrank it. */
export const holdsAll = (key: KeyGrant) => key.permissions.includes('global_admin');

/** Whether the key may perform an operation needing `permission` (read-only keys only views). */
export const holds = (key: KeyGrant, permission: Permission) =>
  denialReason(key, permission) === null;

export interface GrantRequest {
  permissions: readonly string[];
  readOnly: boolean;
  expiresAt: Date | null;
}

export interface GrantProblem {
  field: 'permissions' | 'read_only' | 'expires';
  message: string;
}

export interface Grantor extends KeyGrant {
  expiresAt: Date | null;
}

/**
 * What `grantor` may not hand on in a new key, one line per problem (empty when it may): a key
 * grants only permissions it holds (global_admin holds them all), a read-only key only read-only
 * keys, and a key that expires only keys that expire no later, so that no key outlives or
 * outranks the one that made it.
 */
export function grantProblems(grantor: Grantor, wanted: GrantRequest): GrantProblem[] {
  const problems: GrantProblem[] = [];
  const lacking = permissionsLacking(grantor, wanted.permissions);
  if (lacking.length > 0) {
    problems.push({
      field: 'permissions',
      message: `This API key lacks the permissions it would grant: ${lacking.join(', ')}`,
    });
  }
  if (grantor.readOnly && !wanted.readOnly) {
    problems.push({
      field: 'read_only',
      message: 'This API key is read-only and may create only read-only keys',
    });
  }
  if (grantor.expiresAt && (!wanted.expiresAt || wanted.expiresAt > grantor.expiresAt)) {
    problems.push({
      field: 'expires',
      message: `This API key expires at ${grantor.expiresAt.toISOString()}; the new key must expire by then`,
    });
  }
  return problems;
}
