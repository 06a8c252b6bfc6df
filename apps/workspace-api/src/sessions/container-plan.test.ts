import { samplePlan as plan } from '../../test/launch-plan-fixtures';
import { REASONS } from '../domain';
import type { LaunchPlan } from '../launch-plan';
import { launchSteps, parseSize, SESSION_FENCES, SESSION_PEM_PATH } from './container-plan';

const GB = 1024 ** 3;
const profiles = { root: '/profiles', user: { uid: 1000, gid: 1000 } };
const LOCAL_ENGINE = 'unix:///var/run/docker.sock';
const socketHop = { socketsDir: '', agentDockerUrl: LOCAL_ENGINE };

const steps = (
  p: LaunchPlan,
  environment: Record<string, string> = {},
  kasmUrl?: string,
  hop = socketHop,
) => {
  const result = launchSteps({
    plan: p,
    containerSecret: 'vnc-secret',
    environment,
    kasmUrl,
    profiles,
    socketHop: hop,
  });
  if (!result.ok) throw new Error(result.reason);
  return result;
};

describe('launchSteps', () => {
  it('asks for the plan’s limits, the profile at the Kasm home, VNC_PW and KASM_URL, and port 6901 over https by default', () => {
    const result = steps(plan(), { LANG: 'de_DE' });
    expect(result.endpoint).toEqual({ port: 6901, scheme: 'https' });
    expect(result.container).toEqual({
      sessionId: 'f00d',
      image: 'kasmweb/terminal:1.16.0',
      hostname: undefined,
      env: { LANG: 'de_DE', KASM_URL: 'https://desk.example.com/kasm/f00d/', VNC_PW: 'vnc-secret' },
      cores: 1.5,
      memory: 2 * GB,
      shmSizeBytes: undefined,
      profile: {
        root: '/profiles',
        folders: ['ada'],
        home: '/home/kasm-user',
        user: { uid: 1000, gid: 1000 },
      },
      sessionPort: 6901,
      files: [],
      fences: SESSION_FENCES,
    });
    expect(result.exec).toEqual([]);
  });

  it('drops every capability, forbids new privileges and bounds processes, whatever run_config asks', () => {
    const asked = {
      cap_add: ['NET_RAW', 'SYS_ADMIN'],
      cap_drop: [],
      privileged: true,
      security_opt: ['no-new-privileges=false'],
      pids_limit: -1,
      network_mode: 'bridge',
    };
    const result = steps(plan({}, asked));
    expect(result.container.fences).toEqual({
      capAdd: [],
      rootCapAdd: [
        'CHOWN',
        'DAC_OVERRIDE',
        'FOWNER',
        'FSETID',
        'KILL',
        'SETGID',
        'SETUID',
        'NET_BIND_SERVICE',
      ],
      noNewPrivileges: true,
      pidsLimit: 1024,
    });
    expect(result.ignored.map((note) => note.key)).toEqual(
      expect.arrayContaining(['run_config.cap_add', 'run_config.security_opt']),
    );
  });

  it('takes port, scheme, shm_size, hostname and home from run_config', () => {
    const result = steps(
      plan(
        {},
        { port: 8080, scheme: 'http', shm_size: '512m', hostname: 'desk', home: '/root' },
        { allowRootExec: false, allowPlainHttp: true },
      ),
    );
    expect(result.endpoint).toEqual({ port: 8080, scheme: 'http' });
    expect(result.container).toMatchObject({
      hostname: 'desk',
      shmSizeBytes: 512 * 1024 ** 2,
      sessionPort: 8080,
      profile: { root: '/profiles', folders: ['ada'], home: '/root' },
    });
  });

  it('never lets the request’s environment replace the container password', () => {
    expect(steps(plan(), { VNC_PW: 'mine' }).container.env.VNC_PW).toBe('vnc-secret');
  });

  it('sets KASM_URL to the kasm_url the request asked for, when it asked', () => {
    expect(steps(plan(), {}, 'https://example.org/').container.env.KASM_URL).toBe(
      'https://example.org/',
    );
  });

  it('mounts no profile when the plan has none', () => {
    expect(steps(plan({ persistentProfilePath: null })).container.profile).toBeUndefined();
  });

  it('writes the merged file mappings with their mode', () => {
    const mapping = {
      id: 'm1',
      name: 'hello',
      description: '',
      destination: '/usr/local/bin/hello',
      executable: true,
      content: 'echo hi',
      target: { type: 'image' as const, id: 'i1' },
      source: { type: 'image' as const, id: 'i1', name: 'kasmweb/terminal:1.16.0' },
    };
    expect(steps(plan({ fileMappings: [mapping] })).container.files).toEqual([
      { path: '/usr/local/bin/hello', content: 'echo hi', executable: true },
    ]);
  });

  it('plans exec_config.first_launch apart from go and assign, with a marker in the home', () => {
    const result = steps(
      plan(
        { execConfig: { first_launch: { cmd: 'echo first' }, go: { cmd: 'echo go' } } },
        { home: '/home/ada' },
      ),
    );
    expect(result.firstLaunch).toEqual({
      steps: [expect.objectContaining({ cmd: 'echo first', user: undefined, privileged: false })],
      marker: '/home/ada/.config/workspace-platform/first-launch-done',
    });
    expect(result.exec.map((step) => step.cmd)).toEqual(['echo go']);
    expect(steps(plan({})).firstLaunch.steps).toEqual([]);
  });

  it('runs exec_config go, then assign, with KASM_URL and each step’s own settings', () => {
    const result = steps(
      plan(
        {
          execConfig: {
            go: { cmd: 'echo go', environment: { A: 1 }, user: 'root', privileged: true },
            assign: { cmd: 'echo assign', workdir: '/tmp' },
            other: { cmd: 'ignored' },
          },
        },
        {},
        { allowRootExec: true, allowPlainHttp: false },
      ),
    );
    const kasmUrl = 'https://desk.example.com/kasm/f00d/';
    expect(result.exec).toEqual([
      {
        cmd: 'echo go',
        env: { KASM_URL: kasmUrl, A: '1' },
        workdir: undefined,
        user: 'root',
        privileged: true,
      },
      {
        cmd: 'echo assign',
        env: { KASM_URL: kasmUrl },
        workdir: '/tmp',
        user: undefined,
        privileged: false,
      },
    ]);
  });

  it('runs root and privileged steps as the image’s user, unprivileged, unless the workspace allows them', () => {
    const result = steps(
      plan({
        execConfig: {
          go: { cmd: 'echo go', user: 'root', privileged: true },
          assign: { cmd: 'echo assign', user: 0 },
        },
      }),
    );
    expect(result.exec.map(({ user, privileged }) => ({ user, privileged }))).toEqual([
      { user: undefined, privileged: false },
      { user: undefined, privileged: false },
    ]);
    expect(result.ignored).toEqual([
      { key: 'exec_config.go.user', reason: REASONS.rootExec },
      { key: 'exec_config.go.privileged', reason: REASONS.privilegedExec },
      { key: 'exec_config.assign.user', reason: REASONS.rootExec },
    ]);
  });

  it('runs a step as the non-root user it names, a uid included', () => {
    const result = steps(plan({ execConfig: { go: { cmd: 'id', user: 1000 } } }));
    expect(result.exec[0].user).toBe('1000');
  });

  it('refuses run_config.scheme http unless the workspace allows plain HTTP', () => {
    expect(
      launchSteps({
        plan: plan({}, { scheme: 'http' }),
        containerSecret: 's',
        environment: {},
        profiles,
        socketHop,
      }),
    ).toEqual({ ok: false, reason: `run_config.scheme "http" ${REASONS.plainHttp}` });
  });

  it('ignores run_config keys outside the allowlist, and a home that is not a clean path', () => {
    const result = steps(
      plan({}, { privileged: true, network_mode: 'host', cap_add: ['SYS_ADMIN'], home: '/../etc' }),
    );
    expect(result.container.profile).toMatchObject({
      root: '/profiles',
      folders: ['ada'],
      home: '/home/kasm-user',
    });
    expect(result.ignored.map((note) => note.key)).toEqual([
      'run_config.privileged',
      'run_config.network_mode',
      'run_config.cap_add',
      'run_config.home',
    ]);
  });

  it('gives a plan stored before allowances existed none of them', () => {
    const old = plan({ execConfig: { go: { cmd: 'id', user: 'root' } } }, { scheme: 'http' });
    const image = { ...old.image } as Record<string, unknown>;
    delete image.allowRootExec;
    delete image.allowPlainHttp;
    const stored = { ...old, image } as unknown as LaunchPlan;
    expect(
      launchSteps({ plan: stored, containerSecret: 's', environment: {}, profiles, socketHop }),
    ).toMatchObject({
      ok: false,
    });
    const withoutHttp = { ...stored, image: { ...image, runConfig: {} } } as unknown as LaunchPlan;
    expect(steps(withoutHttp).exec[0].user).toBeUndefined();
  });

  it.each([
    [{ port: 0 }, 'run_config.port must be a port number (1-65535), not 0'],
    [{ port: '80' }, 'run_config.port must be a port number (1-65535), not "80"'],
    [{ scheme: 'ftp' }, 'run_config.scheme must be "http" or "https", not "ftp"'],
  ])('refuses run_config %j with a reason', (runConfig, reason) => {
    expect(
      launchSteps({
        plan: plan({}, runConfig),
        containerSecret: 's',
        environment: {},
        profiles,
        socketHop,
      }),
    ).toEqual({
      ok: false,
      reason,
    });
  });

  it('refuses an s3:// profile, which a Docker agent cannot mount', () => {
    const result = launchSteps({
      plan: plan({ persistentProfilePath: 's3://bucket/ada' }),
      containerSecret: 's',
      environment: {},
      profiles,
      socketHop,
    });
    expect(result).toEqual({
      ok: false,
      reason: 'Profiles at s3://bucket/ada are not supported: a Docker agent mounts a folder path',
    });
  });

  it('mounts the profile as folders below the profile root, each level one name', () => {
    const profile = steps(plan({ persistentProfilePath: '/profiles//ada/f00d/' })).container
      .profile;
    expect(profile).toMatchObject({ root: '/profiles', folders: ['ada', 'f00d'] });
  });

  it.each([
    ['/elsewhere/ada', "is not a folder inside the agent's profile root /profiles (PROFILE_ROOT)"],
    ['/profiles-other/ada', 'is not a folder inside'],
    ['/profiles', 'is not a folder inside'],
    ['/profiles/ada/..', 'has a ., .. or \\ segment or a NUL'],
    ['/profiles/../etc', 'has a ., .. or \\ segment or a NUL'],
    ['/profiles/./ada', 'has a ., .. or \\ segment or a NUL'],
  ])('refuses the profile %p, stored before the rules or filled, with a reason', (path, why) => {
    const result = launchSteps({
      plan: plan({ persistentProfilePath: path }),
      containerSecret: 's',
      environment: {},
      profiles,
      socketHop,
    });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining(why) });
  });
});

describe('parseSize', () => {
  it.each([
    ['512m', 512 * 1024 ** 2],
    ['1g', GB],
    ['1.5G', 1.5 * GB],
    ['64k', 64 * 1024],
    ['100', 100],
    [4096, 4096],
  ])('reads %j as %d bytes', (value, bytes) => {
    expect(parseSize(value)).toBe(bytes);
  });

  it.each([undefined, null, '', 'lots', '-1m', 0, -5, Number.NaN])('ignores %j', (value) => {
    expect(parseSize(value)).toBeUndefined();
  });

  describe('the socket hop', () => {
    const sessionId = '0123456789abcdef0123456789abcdef';
    const withId = (p: LaunchPlan) => ({ ...p, sessionId });
    const hop = (socketsDir: string, agentDockerUrl: string) =>
      steps(withId(plan()), {}, undefined, { socketsDir, agentDockerUrl }).container.socketFolder;

    it('mounts the session’s folder of SESSION_SOCKETS_DIR on an engine of this machine', () => {
      expect(hop('/run/sockets', LOCAL_ENGINE)).toBe(`/run/sockets/${sessionId}`);
    });

    it('mounts nothing when the hop is off or the engine is on another machine', () => {
      expect(hop('', LOCAL_ENGINE)).toBeUndefined();
      expect(hop('/run/sockets', 'tcp://10.0.0.5:2376')).toBeUndefined();
    });

    it('mounts nothing for a session id that is not 32 hex digits', () => {
      const result = steps(plan(), {}, undefined, {
        socketsDir: '/run/sockets',
        agentDockerUrl: LOCAL_ENGINE,
      });
      expect(result.container.socketFolder).toBeUndefined();
    });
  });
});

describe('the session certificate', () => {
  const pem = '-----BEGIN CERTIFICATE-----\n…';
  const withCertificate = (p: LaunchPlan) =>
    launchSteps({
      plan: p,
      containerSecret: 's',
      environment: {},
      profiles,
      socketHop,
      certificate: pem,
    });

  it('is written, the user’s alone, where the platform’s images and KasmVNC read it', () => {
    const result = withCertificate(plan({ persistentProfilePath: null }));
    if (!result.ok) throw new Error(result.reason);
    const owner = { uid: 1000, gid: 1000 };
    expect(result.container.files).toEqual([
      { path: SESSION_PEM_PATH, content: pem, executable: false, privateTo: owner },
      { path: '/home/kasm-user/.vnc/self.pem', content: pem, executable: false, privateTo: owner },
    ]);
  });

  it('is never written into a profile folder mounted at the home', () => {
    const result = withCertificate(plan());
    if (!result.ok) throw new Error(result.reason);
    expect(result.container.files.map((file) => file.path)).toEqual([SESSION_PEM_PATH]);
  });
});
