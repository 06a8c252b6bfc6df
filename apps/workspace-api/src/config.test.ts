import { loadConfig } from './config';

const load = (env: Record<string, string>) =>
  loadConfig({ DATABASE_URL: 'postgres://u@localhost/db', ...env });

describe('profile settings', () => {
  it('defaults to a root under /var/lib and uid/gid 1000', () => {
    expect(load({})).toMatchObject({
      PROFILE_ROOT: '/var/lib/workspace-api/profiles',
      PROFILE_UID: 1000,
      PROFILE_GID: 1000,
    });
  });

  it.each(['/mnt/profiles', '/srv/.profiles', '/a..b'])('accepts the root %p', (root) => {
    expect(load({ PROFILE_ROOT: root }).PROFILE_ROOT).toBe(root);
  });

  it.each(['/', 'profiles', '/mnt/profiles/', '/mnt/..', '/mnt/./p', '/mnt\\p', '/mnt:/x', '/a,b'])(
    'refuses the root %p at start',
    (root) => {
      expect(() => load({ PROFILE_ROOT: root })).toThrow(/PROFILE_ROOT/);
    },
  );

  it('refuses uid 0 as the owner of homes', () => {
    expect(() => load({ PROFILE_UID: '0' })).toThrow(/PROFILE_UID/);
  });
});

describe('the socket hop', () => {
  it('is off unless SESSION_SOCKETS_DIR names a folder', () => {
    expect(load({}).SESSION_SOCKETS_DIR).toBe('');
    expect(load({ SESSION_SOCKETS_DIR: '/run/sessions' }).SESSION_SOCKETS_DIR).toBe(
      '/run/sessions',
    );
  });

  it.each(['sockets', '/run/../etc', '/run/sockets/'])('refuses the folder %p at start', (dir) => {
    expect(() => load({ SESSION_SOCKETS_DIR: dir })).toThrow(/SESSION_SOCKETS_DIR/);
  });

  it('refuses a folder whose sockets would pass the 107 bytes of a Unix socket path', () => {
    expect(() => load({ SESSION_SOCKETS_DIR: `/${'s'.repeat(58)}` })).toThrow(
      /SESSION_SOCKETS_DIR .* too long/,
    );
  });
});
