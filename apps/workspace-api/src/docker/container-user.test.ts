import { runsAsRoot } from './container-user';

const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'toor:x:0:0:another root:/root:/bin/sh',
  'kasm-user:x:1000:1000::/home/kasm-user:/bin/bash',
  'wheelie:x:1001:0::/home/wheelie:/bin/sh',
  'helper:x:1002:1002::/:/bin/sh',
  '# a comment:x:0:0',
  '',
].join('\n');
const GROUP = ['root:x:0:helper', 'kasm-user:x:1000:', 'helper:x:1002:'].join('\n');

describe('runsAsRoot', () => {
  const ROOT = [
    'root',
    'toor',
    '0',
    '00',
    'kasm-user:0',
    'kasm-user:root',
    '1000:0',
    'wheelie',
    'helper',
  ];
  const NOT_ROOT = [
    'kasm-user',
    '1000',
    '1000:1000',
    'kasm-user:kasm-user',
    'wheelie:kasm-user',
    'nobody',
    '# a comment',
  ];
  it.each([...ROOT.map((u) => [u, true]), ...NOT_ROOT.map((u) => [u, false])])(
    'reads %j as root in the container: %s',
    (user, root) => expect(runsAsRoot(String(user), PASSWD, GROUP)).toBe(root),
  );

  it('reads a name as not root when the container has no passwd file', () => {
    expect(runsAsRoot('toor', '', '')).toBe(false);
    expect(runsAsRoot('0', '', '')).toBe(true);
  });
});
