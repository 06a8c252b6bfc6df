import { profileUser, startsAsRoot } from './profile-user';

const fallback = { uid: 1000, gid: 1000 };

describe('profileUser', () => {
  it.each([
    ['1000', { uid: 1000, gid: 1000 }],
    ['1001', { uid: 1001, gid: 1000 }],
    ['1001:1002', { uid: 1001, gid: 1002 }],
    ['1001:0', { uid: 1001, gid: 0 }],
    ['1001:staff', { uid: 1001, gid: 1000 }],
  ])('takes the numeric user %p the image runs as', (user, expected) => {
    expect(profileUser(user, fallback)).toEqual(expected);
  });

  it.each(['', '0', '0:0', 'root', 'kasm-user', 'kasm-user:1000', '-1', '1e3', '2147483648'])(
    'falls back to the configured owner for %p (root, a name, or not a uid)',
    (user) => {
      expect(profileUser(user, { uid: 1234, gid: 5678 })).toEqual({ uid: 1234, gid: 5678 });
    },
  );
});

describe('startsAsRoot', () => {
  it.each(['', 'root', '0', '0:0', 'root:staff', ' 0 '])('takes %p for root', (user) => {
    expect(startsAsRoot(user)).toBe(true);
  });

  it.each(['1000', '1000:1000', 'kasm-user', '10', 'rooted'])(
    'takes %p for another user',
    (user) => {
      expect(startsAsRoot(user)).toBe(false);
    },
  );
});
