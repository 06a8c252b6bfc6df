import {
  checkEngineAddress,
  enginePolicy,
  isCanonicalPath,
  type EngineAddress,
  type EnginePolicy,
} from './engine-address';

const POLICY: EnginePolicy = {
  socketPaths: ['/var/run/docker.sock'],
  allowInsecureTcp: false,
  tlsDir: '/etc/e',
};
const LAB: EnginePolicy = { ...POLICY, allowInsecureTcp: true };
const TLS = {
  tlsCaPath: '/etc/e/ca.pem',
  tlsCertPath: '/etc/e/cert.pem',
  tlsKeyPath: '/etc/e/key.pem',
};
const NO_TLS = { tlsCaPath: '', tlsCertPath: '', tlsKeyPath: '' };

const address = (dockerUrl: string, tls: Partial<typeof TLS> = {}): EngineAddress => ({
  dockerUrl,
  ...NO_TLS,
  ...tls,
});
const fields = (a: EngineAddress, policy = POLICY) => {
  const checked = checkEngineAddress(a, policy);
  return checked.ok ? [] : checked.problems.map((p) => p.field);
};
const messages = (a: EngineAddress, policy = POLICY) => {
  const checked = checkEngineAddress(a, policy);
  return checked.ok ? [] : checked.problems.map((p) => p.message);
};

describe('checkEngineAddress: no engine', () => {
  it('accepts an empty docker_url with no TLS paths', () => {
    expect(checkEngineAddress(address(''), POLICY)).toEqual({ ok: true, target: null });
  });

  it('refuses TLS paths without a docker_url', () => {
    expect(fields(address('', { tlsCaPath: '/ca.pem' }))).toEqual(['tls_ca_path']);
  });
});

describe('checkEngineAddress: unix sockets', () => {
  it('accepts a socket the operator allows', () => {
    expect(checkEngineAddress(address('unix:///var/run/docker.sock'), POLICY)).toEqual({
      ok: true,
      target: { kind: 'unix', socketPath: '/var/run/docker.sock' },
    });
  });

  it.each([
    'unix:///run/user/0/docker.sock',
    'unix:///etc/shadow',
    'unix:///var/run/docker.sock.other',
  ])('refuses %s, a socket not on the allow-list, and names the list', (url) => {
    expect(messages(address(url))).toEqual([
      'names a socket this service does not allow; allowed: /var/run/docker.sock (ENGINE_SOCKET_PATHS)',
    ]);
  });

  it.each([
    'unix://var/run/docker.sock',
    'unix:///var/run/../run/docker.sock',
    'unix:///var//run/docker.sock',
    'unix:///var/run/./docker.sock',
    'unix:///var/run/docker.sock/',
    'unix:///',
    'unix://',
  ])('refuses %s, a path not written plainly, even when it leads to an allowed socket', (url) => {
    expect(fields(address(url))).toEqual(['docker_url']);
  });

  it('refuses TLS paths with a socket, naming each', () => {
    expect(fields(address('unix:///var/run/docker.sock', TLS))).toEqual([
      'tls_ca_path',
      'tls_cert_path',
      'tls_key_path',
    ]);
  });

  it('allows no socket at all when the list is empty', () => {
    expect(
      messages(address('unix:///var/run/docker.sock'), { ...POLICY, socketPaths: [] }),
    ).toEqual(['names a socket this service does not allow; allowed: none (ENGINE_SOCKET_PATHS)']);
  });
});

describe('checkEngineAddress: tcp', () => {
  it('accepts tcp:// with the CA, the client certificate and its key; 2376 by default', () => {
    expect(checkEngineAddress(address('tcp://engine-1.internal', TLS), POLICY)).toEqual({
      ok: true,
      target: {
        kind: 'tcp',
        host: 'engine-1.internal',
        port: 2376,
        tls: { caPath: TLS.tlsCaPath, certPath: TLS.tlsCertPath, keyPath: TLS.tlsKeyPath },
      },
    });
    expect(checkEngineAddress(address('tcp://10.0.0.5:2380/', TLS), POLICY)).toMatchObject({
      ok: true,
      target: { host: '10.0.0.5', port: 2380 },
    });
  });

  it('refuses plain tcp:// without the lab setting, saying why', () => {
    expect(fields(address('tcp://10.0.0.5:2375'))).toEqual(['docker_url']);
    expect(messages(address('tcp://10.0.0.5:2375'))[0]).toMatch(/^tcp:\/\/ needs TLS/);
  });

  it('accepts plain tcp:// under ENGINE_ALLOW_INSECURE_TCP, on 2375 by default', () => {
    expect(checkEngineAddress(address('tcp://10.0.0.5'), LAB)).toEqual({
      ok: true,
      target: { kind: 'tcp', host: '10.0.0.5', port: 2375, tls: null },
    });
  });

  it('refuses a client certificate and key without the CA, also under the lab setting', () => {
    const noCa = address('tcp://10.0.0.5:2376', {
      tlsCertPath: TLS.tlsCertPath,
      tlsKeyPath: TLS.tlsKeyPath,
    });
    for (const policy of [POLICY, LAB]) {
      expect(fields(noCa, policy)).toEqual(['tls_ca_path']);
      expect(messages(noCa, policy)[0]).toMatch(/without the CA the engine cannot be verified/);
    }
  });

  it.each([
    [{ tlsCaPath: TLS.tlsCaPath }, ['tls_cert_path', 'tls_key_path']],
    [{ tlsCaPath: TLS.tlsCaPath, tlsCertPath: TLS.tlsCertPath }, ['tls_key_path']],
    [{ tlsKeyPath: TLS.tlsKeyPath }, ['tls_ca_path', 'tls_cert_path']],
  ])('refuses part of the TLS files (%j), naming each one missing', (tls, missing) => {
    expect(fields(address('tcp://10.0.0.5:2376', tls))).toEqual(missing);
    expect(fields(address('tcp://10.0.0.5:2376', tls), LAB)).toEqual(missing);
  });

  it('refuses TLS paths that are relative or not written plainly', () => {
    const bad = {
      tlsCaPath: 'ca.pem',
      tlsCertPath: '/etc/e/../cert.pem',
      tlsKeyPath: '/etc/e/key.pem',
    };
    expect(fields(address('tcp://10.0.0.5:2376', bad))).toEqual(['tls_ca_path', 'tls_cert_path']);
  });

  it.each([
    'tcp://user@10.0.0.5:2376',
    'tcp://10.0.0.5:2376/path',
    'tcp://10.0.0.5:2376?x=1',
    'tcp://:2376',
    'tcp://-bad-.example:2376',
    'tcp://[::1]:2376',
    'https://10.0.0.5:2376',
    'http://10.0.0.5:2375',
    'ssh://me@10.0.0.5',
    'npipe:////./pipe/docker_engine',
    '/var/run/docker.sock',
  ])('refuses %s, which is no accepted form', (url) => {
    expect(fields(address(url, TLS))).toEqual(['docker_url']);
  });

  it.each(['tcp://10.0.0.5:0', 'tcp://10.0.0.5:65536', 'tcp://10.0.0.5:99999'])(
    'refuses %s, a port outside 1-65535',
    (url) => {
      expect(messages(address(url, TLS))).toEqual(['has a port outside 1-65535']);
    },
  );
});

describe('isCanonicalPath', () => {
  it.each([
    ['/var/run/docker.sock', true],
    ['/a', true],
    ['/', false],
    ['', false],
    ['a/b', false],
    ['/a/', false],
    ['/a//b', false],
    ['/a/./b', false],
    ['/a/../b', false],
  ])('%s → %s', (value, expected) => {
    expect(isCanonicalPath(value)).toBe(expected);
  });
});

describe('enginePolicy', () => {
  it('allows the listed sockets and the socket DOCKER_HOST names, once each', () => {
    expect(
      enginePolicy({
        ENGINE_SOCKET_PATHS: '/var/run/docker.sock, /run/docker.sock,,/var/run/docker.sock',
        ENGINE_ALLOW_INSECURE_TCP: false,
        ENGINE_TLS_DIR: '/etc/e',
        DOCKER_HOST: 'unix:///tmp/engine/docker.sock',
      }),
    ).toEqual({
      socketPaths: ['/var/run/docker.sock', '/run/docker.sock', '/tmp/engine/docker.sock'],
      allowInsecureTcp: false,
      tlsDir: '/etc/e',
    });
  });

  it('adds nothing for a tcp:// DOCKER_HOST, and carries the lab setting', () => {
    expect(
      enginePolicy({
        ENGINE_SOCKET_PATHS: '/var/run/docker.sock',
        ENGINE_ALLOW_INSECURE_TCP: true,
        ENGINE_TLS_DIR: '/etc/e',
        DOCKER_HOST: 'tcp://10.0.0.5:2376',
      }),
    ).toEqual({ socketPaths: ['/var/run/docker.sock'], allowInsecureTcp: true, tlsDir: '/etc/e' });
  });
});
