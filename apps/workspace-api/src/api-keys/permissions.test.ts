import { denialReason, isViewPermission } from './permissions';

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
