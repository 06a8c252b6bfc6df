import { workspaceConfigFingerprint } from './config-fingerprint';

const base = {
  runConfig: { hostname: 'desk', shm_size: '512m' },
  execConfig: { go: { cmd: 'echo hi' } },
  allowRootExec: false,
  allowPlainHttp: false,
};

describe('workspaceConfigFingerprint', () => {
  it('changes with the run config, the exec config and each allowance', () => {
    const changed = [
      { ...base, runConfig: { ...base.runConfig, hostname: 'other' } },
      { ...base, execConfig: { go: { cmd: 'echo bye' } } },
      { ...base, execConfig: { go: { cmd: 'echo hi', user: 'root' } } },
      { ...base, allowRootExec: true },
      { ...base, allowPlainHttp: true },
    ].map(workspaceConfigFingerprint);
    expect(new Set([workspaceConfigFingerprint(base), ...changed]).size).toBe(6);
  });

  it('is the same for the same settings, whatever the order of their keys', () => {
    const reordered = {
      allowPlainHttp: false,
      allowRootExec: false,
      execConfig: { go: { cmd: 'echo hi' } },
      runConfig: { shm_size: '512m', hostname: 'desk' },
    };
    expect(workspaceConfigFingerprint(reordered)).toBe(workspaceConfigFingerprint(base));
    expect(workspaceConfigFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });
});
