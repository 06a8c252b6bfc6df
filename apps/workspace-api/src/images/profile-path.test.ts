import { profilePathProblems } from './profile-path';

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

  it('reports every problem at once', () => {
    expect(profilePathProblems('p/{nope}')).toHaveLength(3);
  });
});
