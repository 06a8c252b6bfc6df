import {
  allowlistConfig,
  applyAllowances,
  effectiveConfig,
  isRootUser,
  NO_ALLOWANCES,
  REASONS,
  RUN_CONFIG_KEYS,
} from './workspace-config';

const run = (runConfig: unknown) => allowlistConfig({ runConfig, execConfig: {} });
const exec = (execConfig: unknown) => allowlistConfig({ runConfig: {}, execConfig });
const ALL = { allowRootExec: true, allowPlainHttp: true };

describe('allowlistConfig: run_config', () => {
  it('keeps every honoured key', () => {
    const config = { hostname: 'kasm', port: 6901, scheme: 'https', shm_size: '512m', home: '/h' };
    expect(run(config)).toEqual({ runConfig: config, execConfig: {}, dropped: [] });
    expect(Object.keys(config)).toEqual([...RUN_CONFIG_KEYS]);
  });

  // What spec §11 names, in docker-py's and the Engine API's spellings.
  const named = ['privileged', 'network_mode', 'pid_mode', 'ipc_mode', 'userns_mode', 'devices'];
  const more = ['cap_add', 'security_opt', 'volumes', 'mounts', 'binds', 'user', 'sysctls'];
  const engineApi = ['Privileged', 'CapAdd', 'NetworkMode', 'PidMode', 'Binds', 'Devices'];
  it.each([...named, ...more, ...engineApi, 'pid', 'ipc', 'network', 'device-requests'])(
    'drops %s as a loosening of isolation',
    (key) => {
      expect(run({ [key]: 'x', hostname: 'kasm' })).toEqual({
        runConfig: { hostname: 'kasm' },
        execConfig: {},
        dropped: [{ key: `run_config.${key}`, reason: REASONS.isolation }],
      });
    },
  );

  it.each(['environment', 'container_name', 'ports', 'labels', 'cap_drop', 'HOSTNAME'])(
    'drops %s as a key the platform does not honour',
    (key) => {
      expect(run({ [key]: 1 }).dropped).toEqual([
        { key: `run_config.${key}`, reason: REASONS.runKey },
      ]);
    },
  );

  it.each(['/', '', 'home/kasm', '/home/../etc', '/home/./x', '/home//x', '/home/', 7, null])(
    'drops home %j, which is not a clean absolute path',
    (home) => {
      expect(run({ home })).toEqual({
        runConfig: {},
        execConfig: {},
        dropped: [{ key: 'run_config.home', reason: REASONS.home }],
      });
    },
  );

  it.each(['/home/kasm-user', '/root', '/a/b.c/d..e'])('keeps home %j', (home) => {
    expect(run({ home }).runConfig).toEqual({ home });
  });

  it('leaves port and scheme values to the launch, which refuses bad ones with a reason', () => {
    expect(run({ port: 0, scheme: 'ftp' }).runConfig).toEqual({ port: 0, scheme: 'ftp' });
  });

  it.each([null, 'x', [1], 3])('reads a run_config that is not an object (%j) as empty', (v) => {
    expect(run(v)).toEqual({ runConfig: {}, execConfig: {}, dropped: [] });
  });
});

describe('allowlistConfig: exec_config', () => {
  it('keeps go and assign with every honoured key', () => {
    const go = {
      cmd: 'a',
      environment: { A: '1' },
      workdir: '/w',
      user: 'kasm-user',
      privileged: false,
    };
    const assign = { cmd: 'b', user: 1000, privileged: true };
    expect(exec({ go, assign })).toEqual({
      runConfig: {},
      execConfig: { go, assign },
      dropped: [],
    });
  });

  it('keeps first_launch under the rules of go: its root user withheld without the allowance', () => {
    const screened = exec({ first_launch: { cmd: 'x', user: 'root' } });
    expect(screened.dropped).toEqual([]);
    expect(
      effectiveConfig(
        { runConfig: {}, execConfig: { first_launch: { cmd: 'x', user: 'root' } } },
        NO_ALLOWANCES,
      ),
    ).toEqual({
      runConfig: {},
      execConfig: { first_launch: { cmd: 'x' } },
      ignored: [{ key: 'exec_config.first_launch.user', reason: REASONS.rootExec }],
    });
  });

  it.each(['pre_launch', 'post_run', 'Go'])('drops the step %s, which never runs', (step) => {
    expect(exec({ [step]: { cmd: 'x' } }).dropped).toEqual([
      { key: `exec_config.${step}`, reason: REASONS.step },
    ]);
  });

  it.each([null, 'echo hi', [], {}, { cmd: 7 }, { environment: {} }])(
    'drops a step %j without a cmd',
    (go) => {
      expect(exec({ go })).toEqual({
        runConfig: {},
        execConfig: {},
        dropped: [{ key: 'exec_config.go', reason: REASONS.stepShape }],
      });
    },
  );

  it.each([
    ['environment', 'A=1', REASONS.environment],
    ['environment', ['A'], REASONS.environment],
    ['workdir', 3, REASONS.workdir],
    ['user', { name: 'root' }, REASONS.user],
    ['user', -1, REASONS.user],
    ['user', 1.5, REASONS.user],
    ['privileged', 'true', REASONS.privileged],
    ['cap_add', ['SYS_ADMIN'], REASONS.isolation],
    ['devices', ['/dev/kvm'], REASONS.isolation],
    ['detach', true, REASONS.stepKey],
    ['tty', true, REASONS.stepKey],
  ])('drops %s %j from a step', (key, value, reason) => {
    expect(exec({ go: { cmd: 'x', [key]: value } })).toEqual({
      runConfig: {},
      execConfig: { go: { cmd: 'x' } },
      dropped: [{ key: `exec_config.go.${key}`, reason }],
    });
  });
});

describe('isRootUser', () => {
  it.each(['root', '0', 0, '00', ' root ', 'root:root', '0:0', '1000:0', '1000:root', 'root:1000'])(
    'reads %j as root',
    (user) => expect(isRootUser(user)).toBe(true),
  );

  it.each(['kasm-user', '1000', 1000, '1000:1000', 'rooty', '10', '', undefined, null, {}])(
    'reads %j as not root',
    (user) => expect(isRootUser(user)).toBe(false),
  );
});

describe('applyAllowances', () => {
  const config = {
    runConfig: { scheme: 'http', port: 8080 },
    execConfig: {
      go: { cmd: 'a', user: 'root', privileged: true },
      assign: { cmd: 'b', user: '1000', privileged: false },
    },
  };

  it('withholds an http scheme, root users and privileged steps without allowances', () => {
    expect(applyAllowances(config, NO_ALLOWANCES)).toEqual({
      runConfig: { port: 8080 },
      execConfig: {
        go: { cmd: 'a' },
        assign: { cmd: 'b', user: '1000', privileged: false },
      },
      withheld: [
        { key: 'run_config.scheme', reason: REASONS.plainHttp },
        { key: 'exec_config.go.user', reason: REASONS.rootExec },
        { key: 'exec_config.go.privileged', reason: REASONS.privilegedExec },
      ],
    });
  });

  it('lets each through only with its own allowance', () => {
    const rootOnly = applyAllowances(config, { allowRootExec: true, allowPlainHttp: false });
    expect(rootOnly.execConfig).toEqual(config.execConfig);
    expect(rootOnly.withheld.map((n) => n.key)).toEqual(['run_config.scheme']);
    const httpOnly = applyAllowances(config, { allowRootExec: false, allowPlainHttp: true });
    expect(httpOnly.runConfig).toEqual(config.runConfig);
    expect(httpOnly.withheld.map((n) => n.key)).toEqual([
      'exec_config.go.user',
      'exec_config.go.privileged',
    ]);
    expect(applyAllowances(config, ALL)).toEqual({ ...config, withheld: [] });
  });

  it('keeps https and a config without users as they are', () => {
    const plain = { runConfig: { scheme: 'https' }, execConfig: { go: { cmd: 'a' } } };
    expect(applyAllowances(plain, NO_ALLOWANCES)).toEqual({ ...plain, withheld: [] });
  });

  it('does not change the config it is given', () => {
    const copy = JSON.parse(JSON.stringify(config));
    applyAllowances(config, NO_ALLOWANCES);
    expect(config).toEqual(copy);
  });
});

describe('effectiveConfig', () => {
  it('allowlists, then applies the allowances, reporting both', () => {
    const result = effectiveConfig(
      {
        runConfig: { hostname: 'kasm', privileged: true, scheme: 'http' },
        execConfig: { go: { cmd: 'a', user: 'root' }, pre_launch: { cmd: 'b' } },
      },
      NO_ALLOWANCES,
    );
    expect(result).toEqual({
      runConfig: { hostname: 'kasm' },
      execConfig: { go: { cmd: 'a' } },
      ignored: [
        { key: 'run_config.privileged', reason: REASONS.isolation },
        { key: 'exec_config.pre_launch', reason: REASONS.step },
        { key: 'run_config.scheme', reason: REASONS.plainHttp },
        { key: 'exec_config.go.user', reason: REASONS.rootExec },
      ],
    });
  });

  it('never lets an allowance through a key outside the allowlist', () => {
    const result = effectiveConfig(
      { runConfig: { privileged: true, network_mode: 'host' }, execConfig: {} },
      ALL,
    );
    expect(result.runConfig).toEqual({});
    expect(result.ignored).toHaveLength(2);
  });
});
