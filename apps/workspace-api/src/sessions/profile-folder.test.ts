import { profileFolder } from './profile-folder';

describe('profileFolder', () => {
  it('answers the levels below the root, one name each', () => {
    expect(profileFolder('/srv/profiles', '/srv/profiles/ada')).toEqual({
      root: '/srv/profiles',
      folders: ['ada'],
    });
    expect(profileFolder('/srv/profiles', '/srv//profiles/i1/ada/')).toEqual({
      root: '/srv/profiles',
      folders: ['i1', 'ada'],
    });
  });

  it('takes a username filled in as an encoded .. as one literal name', () => {
    expect(profileFolder('/p', '/p/%2E%2E/x')).toEqual({ root: '/p', folders: ['%2E%2E', 'x'] });
  });

  it.each([
    ['/srv/other/ada', 'not a folder inside'],
    ['/srv/profilesx/ada', 'not a folder inside'],
    ['/srv', 'not a folder inside'],
    ['/srv/profiles', 'not a folder inside'],
    ['/srv/profiles/', 'not a folder inside'],
    ['/srv/profiles/ada/..', 'has a ., .. or \\ segment or a NUL'],
    ['/srv/profiles/../../etc', 'has a ., .. or \\ segment or a NUL'],
    ['/srv/profiles/./ada', 'has a ., .. or \\ segment or a NUL'],
    ['/srv/profiles/a\\..', 'has a ., .. or \\ segment or a NUL'],
    ['/srv/profiles/a\0b', 'has a ., .. or \\ segment or a NUL'],
  ])('refuses %p with a reason', (path, why) => {
    expect(profileFolder('/srv/profiles', path)).toEqual(expect.stringContaining(why));
  });
});
