import { fillProfilePath, profilePathProblems, segmentProblems } from './profile-path';

describe('profilePathProblems', () => {
  it.each([
    '',
    '/mnt/profiles/{username}',
    '/mnt/profiles/{image_id}/{user_id}/',
    's3://bucket/profiles/{username}/{image_id}',
    '/profiles/{username}-{user_id}',
  ])('accepts %p', (path) => {
    expect(profilePathProblems(path)).toEqual([]);
  });

  it('needs {username} or {user_id} so that profiles are per user', () => {
    expect(profilePathProblems('/mnt/profiles/{image_id}')).toEqual([
      expect.stringContaining('{username} or {user_id}'),
    ]);
    expect(profilePathProblems('/mnt/profiles/shared')).toEqual([
      expect.stringContaining('{username} or {user_id}'),
    ]);
  });

  it('names every unknown placeholder', () => {
    expect(profilePathProblems('/p/{username}/{home}/{uid}')).toEqual([
      'has unknown placeholder(s) {home}, {uid}; known are {username}, {user_id}, {image_id}',
    ]);
  });

  it('refuses relative paths and other URL schemes', () => {
    expect(profilePathProblems('profiles/{username}')).toEqual([
      'must be an absolute path or an s3:// URL',
    ]);
    expect(profilePathProblems('https://x/{username}')).toEqual([
      'must be an absolute path or an s3:// URL',
    ]);
  });

  it('refuses unmatched braces', () => {
    expect(profilePathProblems('/p/{username}/{oops')).toEqual(['has an unmatched { or }']);
  });

  const DOTS = 'must not contain . or .. segments, raw or percent-encoded';
  it.each([
    '/{user_id}/..',
    '/p/{username}/../..',
    '/p/../{username}',
    '/p/./{username}',
    '/p/{username}/.',
    '/p/{username}/%2e%2e',
    '/p/{username}/%2E%2E',
    '/p/{username}/%2e%2E/x',
    '/p/{username}/.%2e',
    '/p/{username}/%2e.',
    '/p/{username}/%2e',
    '/p/{username}/%252e%252e',
    '/p/{username}%2F..',
    '/p/{username}/%2f%2e%2e',
    's3://bucket/{user_id}/..',
    's3://bucket/%2e%2e/{user_id}',
  ])('refuses the dot segment in %p, raw or percent-encoded', (path) => {
    expect(profilePathProblems(path)).toEqual([DOTS]);
  });

  it.each([
    ['/p/{username}\\..', 'must separate folders with /, not \\'],
    ['/p\\{username}', 'must separate folders with /, not \\'],
    ['/p/{username}%5C', 'must separate folders with /, not \\'],
    [
      '/p/{username}\0',
      'must not contain control characters (NUL included), raw or percent-encoded',
    ],
    [
      '/p/{username}%00',
      'must not contain control characters (NUL included), raw or percent-encoded',
    ],
    [
      '/p/{username}\n',
      'must not contain control characters (NUL included), raw or percent-encoded',
    ],
  ])('refuses %p', (path, problem) => {
    expect(profilePathProblems(path)).toEqual([problem]);
  });

  it.each([
    '/p/.profiles/{username}',
    '/p/{username}..',
    '/p/..{username}',
    '/p/{username}/...',
    '/p/a.b/{username}',
    '/p/%2e%2ex/{username}',
    '/p/{username}%41',
    '/p/%e2%82%ac/{username}',
    '/p/%zz/{username}',
  ])('accepts names with dots or percent signs that are not dot segments: %p', (path) => {
    expect(profilePathProblems(path)).toEqual([]);
  });

  it('names each kind of problem once', () => {
    expect(segmentProblems('/a/../b/./c\\d%00%5c')).toEqual([
      DOTS,
      'must separate folders with /, not \\',
      'must not contain control characters (NUL included), raw or percent-encoded',
    ]);
  });

  it('reports every problem at once', () => {
    expect(profilePathProblems('p/{nope}')).toHaveLength(3);
  });
});

describe('fillProfilePath', () => {
  const owner = {
    username: 'ada',
    userId: '50faa5439c574b518cd868dac9256e4b',
    imageId: '6820f530e0bf48259f53e7b01e175ea9',
  };

  it('fills {username}, {user_id} and {image_id}, each wherever and however often it appears', () => {
    expect(fillProfilePath('/p/{username}', owner)).toBe('/p/ada');
    expect(fillProfilePath('/p/{user_id}', owner)).toBe(`/p/${owner.userId}`);
    expect(fillProfilePath('/p/{image_id}/{username}', owner)).toBe(`/p/${owner.imageId}/ada`);
    expect(fillProfilePath('s3://b/{username}-{user_id}/{username}', owner)).toBe(
      `s3://b/ada-${owner.userId}/ada`,
    );
  });

  it('answers null for an empty path: no persistent profile', () => {
    expect(fillProfilePath('', owner)).toBeNull();
  });

  it('encodes a username so that it stays one path segment and cannot climb out', () => {
    expect(fillProfilePath('/p/{username}', { ...owner, username: '../../etc' })).toBe(
      '/p/..%2F..%2Fetc',
    );
    expect(fillProfilePath('/p/{username}/x', { ...owner, username: '..' })).toBe('/p/%2E%2E/x');
    expect(fillProfilePath('/p/{username}', { ...owner, username: 'a b/c?d#e' })).toBe(
      '/p/a%20b%2Fc%3Fd%23e',
    );
    expect(fillProfilePath('/p/{username}', { ...owner, username: 'zoë@example.com' })).toBe(
      '/p/zo%C3%AB@example.com',
    );
  });

  it('keeps every username one name that is neither . nor .., whatever it holds', () => {
    for (const username of ['.', '..', '...', '/', '../x', 'a\\b', '%2e%2e', 'x\0y', ' ']) {
      const filled = fillProfilePath('/p/{username}', { ...owner, username }) ?? '';
      const names = filled.split('/').slice(2);
      expect(names).toHaveLength(1);
      expect(names[0]).not.toMatch(/^\.{1,2}$|\\|\0/);
    }
  });

  it('does not treat a filled value as a placeholder', () => {
    expect(fillProfilePath('/p/{username}', { ...owner, username: '{user_id}' })).toBe(
      '/p/%7Buser_id%7D',
    );
  });
});
