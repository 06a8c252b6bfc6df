import path from 'node:path';

const { SERVICES, serviceEnv, socketsDirOf } = require('../services.cjs') as {
  SERVICES: { name: string }[];
  socketsDirOf: (root: string) => string;
  serviceEnv: (
    service: { name: string },
    databaseUrl: string,
    env: Record<string, string | undefined>,
  ) => Record<string, string | undefined>;
};

const workspaceApi = SERVICES.find((s) => s.name === 'workspace-api')!;
const envOf = (env: Record<string, string | undefined>) =>
  serviceEnv(workspaceApi, 'postgres://db', env);

describe('the environment npm start gives workspace-api', () => {
  it('turns local registry folders on in development', () => {
    expect(envOf({}).REGISTRY_ALLOW_LOCAL_PATHS).toBe('true');
    expect(envOf({ NODE_ENV: 'development' }).REGISTRY_ALLOW_LOCAL_PATHS).toBe('true');
  });

  it('leaves them to the service default (off) under NODE_ENV=production', () => {
    expect(envOf({ NODE_ENV: 'production' }).REGISTRY_ALLOW_LOCAL_PATHS).toBeUndefined();
  });

  it("keeps the caller's explicit choice", () => {
    expect(envOf({ REGISTRY_ALLOW_LOCAL_PATHS: 'false' }).REGISTRY_ALLOW_LOCAL_PATHS).toBe('false');
  });

  it('turns the socket hop on in the checkout’s .data/session-sockets, unless the caller empties it', () => {
    const dir = envOf({}).SESSION_SOCKETS_DIR ?? '';
    expect(dir).toBe(path.join(__dirname, '..', '..', '.data', 'session-sockets'));
    expect(envOf({ SESSION_SOCKETS_DIR: '' }).SESSION_SOCKETS_DIR).toBe('');
  });

  it('keeps a deep checkout’s sockets in a folder of its own whose socket paths fit in 107 bytes', () => {
    const deep = `/home/someone/${'projects/'.repeat(4)}workspace-platform`;
    const dir = socketsDirOf(deep);
    expect(dir.startsWith(path.join(deep, '.data'))).toBe(false);
    expect(Buffer.byteLength(`${dir}/${'0'.repeat(32)}/websockify.sock`)).toBeLessThanOrEqual(107);
    expect(socketsDirOf(deep)).toBe(dir);
    expect(socketsDirOf(`${deep}-2`)).not.toBe(dir);
    expect(socketsDirOf('/srv/platform')).toBe('/srv/platform/.data/session-sockets');
  });

  it('gives sessions a listener of their own, 3003 or WORKSPACE_SESSIONS_PORT, and calendar-api none', () => {
    expect(envOf({}).SESSION_PORT).toBe('3003');
    expect(envOf({ WORKSPACE_SESSIONS_PORT: '4003' }).SESSION_PORT).toBe('4003');
    const calendar = SERVICES.find((s) => s.name === 'calendar-api')!;
    expect(serviceEnv(calendar, 'postgres://db', {}).SESSION_PORT).toBeUndefined();
  });
});
