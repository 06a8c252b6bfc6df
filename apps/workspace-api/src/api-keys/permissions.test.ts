import {
  denialReason,
  grantProblems,
  holds,
  isViewPermission,
  permissionsLacking,
} from './permissions';

describe('denialReason', () => {
  it('allows a key holding the exact permission', () => {
    expect(
      denialReason({ permissions: ['users.modify'], readOnly: false }, 'users.modify'),
    ).toBeNull();
  });

  it('allows everything to a global_admin key', () => {
    expect(
      denialReason({ permissions: ['global_admin'], readOnly: false }, 'users.delete'),
    ).toBeNull();
  });

  it('refuses a key without the permission, naming it', () => {
    expect(denialReason({ permissions: ['users.view'], readOnly: false }, 'users.modify')).toBe(
      'This API key lacks the users.modify permission',
    );
  });

  it('refuses writes to a read-only key even with global_admin', () => {
    expect(denialReason({ permissions: ['global_admin'], readOnly: true }, 'users.create')).toBe(
      'This API key is read-only',
    );
  });

  it('lets a read-only key view', () => {
    expect(denialReason({ permissions: ['users.view'], readOnly: true }, 'users.view')).toBeNull();
  });

  it('treats only .view permissions as views', () => {
    expect(isViewPermission('groups.view')).toBe(true);
    expect(isViewPermission('users.auth_session')).toBe(false);
  });
});

describe('holds', () => {
  it('holds what denialReason allows: never a non-view permission on a read-only key', () => {
    expect(
      holds({ permissions: ['users.auth_session'], readOnly: false }, 'users.auth_session'),
    ).toBe(true);
    expect(holds({ permissions: ['global_admin'], readOnly: false }, 'users.auth_session')).toBe(
      true,
    );
    expect(holds({ permissions: ['global_admin'], readOnly: true }, 'users.auth_session')).toBe(
      false,
    );
    expect(holds({ permissions: ['sessions.view'], readOnly: false }, 'users.auth_session')).toBe(
      false,
    );
  });
});

describe('permissionsLacking', () => {
  it('names each permission the key does not hold, once, in the order asked', () => {
    const key = { permissions: ['users.view', 'api_keys.modify'], readOnly: false };
    expect(
      permissionsLacking(key, ['global_admin', 'users.view', 'users.delete', 'global_admin']),
    ).toEqual(['global_admin', 'users.delete']);
  });

  it('finds nothing lacking in a global_admin key', () => {
    expect(
      permissionsLacking({ permissions: ['global_admin'], readOnly: false }, ['users.delete']),
    ).toEqual([]);
  });
});

describe('grantProblems', () => {
  const day = 86_400_000;
  const soon = new Date(Date.now() + day);
  const later = new Date(Date.now() + 2 * day);
  const manager = {
    permissions: ['api_keys.modify', 'users.view'],
    readOnly: false,
    expiresAt: null,
  };
  const wanted = (over: Partial<Parameters<typeof grantProblems>[1]> = {}) => ({
    permissions: ['users.view'],
    readOnly: false,
    expiresAt: null,
    ...over,
  });

  it('lets a key grant permissions it holds', () => {
    expect(
      grantProblems(manager, wanted({ permissions: ['users.view', 'api_keys.modify'] })),
    ).toEqual([]);
  });

  it('refuses global_admin and any other permission the key lacks, naming them', () => {
    expect(
      grantProblems(
        manager,
        wanted({ permissions: ['global_admin', 'users.view', 'users.delete'] }),
      ),
    ).toEqual([
      {
        field: 'permissions',
        message: 'This API key lacks the permissions it would grant: global_admin, users.delete',
      },
    ]);
  });

  it('lets global_admin grant anything', () => {
    const admin = { permissions: ['global_admin'], readOnly: false, expiresAt: null };
    expect(grantProblems(admin, wanted({ permissions: ['global_admin', 'users.delete'] }))).toEqual(
      [],
    );
  });

  it('lets a read-only key issue only read-only keys', () => {
    const viewer = { ...manager, readOnly: true };
    expect(grantProblems(viewer, wanted({ readOnly: true }))).toEqual([]);
    expect(grantProblems(viewer, wanted())).toEqual([
      {
        field: 'read_only',
        message: 'This API key is read-only and may create only read-only keys',
      },
    ]);
    expect(grantProblems(manager, wanted({ readOnly: true }))).toEqual([]);
  });

  it('lets a key that expires issue only keys that expire no later', () => {
    const expiring = { ...manager, expiresAt: soon };
    const message = `This API key expires at ${soon.toISOString()}; the new key must expire by then`;
    expect(grantProblems(expiring, wanted({ expiresAt: soon }))).toEqual([]);
    expect(grantProblems(expiring, wanted({ expiresAt: later }))).toEqual([
      { field: 'expires', message },
    ]);
    expect(grantProblems(expiring, wanted({ expiresAt: null }))).toEqual([
      { field: 'expires', message },
    ]);
    expect(grantProblems(manager, wanted({ expiresAt: later }))).toEqual([]);
  });

  it('reports every problem at once', () => {
    const grantor = { permissions: ['api_keys.modify'], readOnly: true, expiresAt: soon };
    const fields = grantProblems(grantor, wanted({ permissions: ['global_admin'] })).map(
      (p) => p.field,
    );
    expect(fields).toEqual(['permissions', 'read_only', 'expires']);
  });
});
