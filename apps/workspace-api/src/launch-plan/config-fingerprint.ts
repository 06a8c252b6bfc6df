import { createHash } from 'node:crypto';

/** JSON with every object's keys sorted: the same settings give the same text, however stored. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * SHA-256 of what a workspace says about how its containers run: its run and exec config and
 * the allowances an administrator set (root commands, plain HTTP). A staged session keeps the
 * one it started with; once the workspace's differs, it is not handed out but retired.
 */
export function workspaceConfigFingerprint(image: {
  runConfig: unknown;
  execConfig: unknown;
  allowRootExec: boolean;
  allowPlainHttp: boolean;
}): string {
  const settings = {
    runConfig: image.runConfig,
    execConfig: image.execConfig,
    allowRootExec: image.allowRootExec,
    allowPlainHttp: image.allowPlainHttp,
  };
  return createHash('sha256').update(canonical(settings)).digest('hex');
}
