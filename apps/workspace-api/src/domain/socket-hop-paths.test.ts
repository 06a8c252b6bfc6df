import { socketFolderOf, socketsDirProblem } from './socket-hop-paths';

describe('socketsDirProblem', () => {
  it('accepts a folder whose sockets fit in the 107 bytes of a Unix socket path', () => {
    // 58 + '/' + 32 + '/websockify.sock' = 107.
    expect(socketsDirProblem(`/${'a'.repeat(57)}`)).toBeNull();
  });

  it('refuses a longer one, saying what to do', () => {
    expect(socketsDirProblem(`/${'a'.repeat(58)}`)).toMatch(
      /SESSION_SOCKETS_DIR .* would take 108 bytes, more than the 107 .*shorter folder/,
    );
  });
});

describe('socketFolderOf', () => {
  const id = 'ab'.repeat(16);
  it('names the session’s folder for an engine of this machine only', () => {
    expect(socketFolderOf('/s', id, 'unix:///run/docker.sock')).toBe(`/s/${id}`);
    expect(socketFolderOf('/s', id, 'tcp://engine:2376')).toBeUndefined();
    expect(socketFolderOf('', id, 'unix:///run/docker.sock')).toBeUndefined();
    expect(socketFolderOf('/s', '../etc', 'unix:///run/docker.sock')).toBeUndefined();
  });
});
