import { createServer } from 'node:net';
import { SERVICES } from '../support/repo';
import { IMAGE_TAG } from './support/app-images';
import { composeV1 } from './support/compose-v1';
import { report, seconds, state, waitExited, waitHealthy } from './support/containers';
import { docker, waitFor } from './support/docker';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

const JOBS = ['workspace-api-migrate', 'workspace-api-settings', 'calendar-api-migrate'];

describe('the Compose stack, brought up by docker-compose v1 on a real engine', () => {
  const ports: Record<string, number> = {};
  let stack: ReturnType<typeof composeV1>;
  let credentials: { api_key: string; api_key_secret: string };

  const containerOf = async (service: string) => {
    const id = (await stack.compose(['ps', '-q', service])).trim();
    if (!id) throw new Error(`${service} has no container`);
    return id;
  };
  const workspaceApi = async (operation: string, body: object = {}) => {
    const res = await fetch(`http://127.0.0.1:${ports['workspace-api']}/api/public/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...credentials, ...body }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const upUntilHealthy = async () => {
    const started = Date.now();
    await stack.compose(['up', '-d', '--no-build']);
    for (const service of SERVICES) await waitHealthy(await containerOf(service.name));
    return seconds(started);
  };

  beforeAll(async () => {
    for (const service of SERVICES) ports[service.name] = await freePort();
    stack = composeV1({
      IMAGE_TAG,
      WORKSPACE_API_PORT: String(ports['workspace-api']),
      CALENDAR_API_PORT: String(ports['calendar-api']),
    });
    report(`compose up: both services healthy after ${await upUntilHealthy()}`);
  });

  afterAll(async () => {
    await stack
      ?.compose(['down', '--volumes', '--remove-orphans'])
      .catch((e: Error) => report(e.message));
    stack?.remove();
  });

  it('brings Postgres up healthy, runs both migrations and the settings job to success, and both services turn healthy', async () => {
    expect((await state(await containerOf('postgres'))).Health?.Status).toBe('healthy');
    for (const job of JOBS) expect(await waitExited(await containerOf(job))).toBe(0);
    for (const service of SERVICES)
      expect((await state(await containerOf(service.name))).Health?.Status).toBe('healthy');
    const migrations = await docker(['logs', await containerOf('workspace-api-migrate')]);
    expect(migrations).toMatch(/Applied \d{14}_/);
  });

  it('answers API calls on the published ports, with the example settings the settings job applied', async () => {
    const issued = await stack.compose([
      'run',
      '--rm',
      '--no-deps',
      'workspace-api',
      'node',
      'apps/workspace-api/dist/cli.js',
      'api-key',
      'create',
      '--name',
      'deploy-test',
      '--permission',
      'global_admin',
    ]);
    credentials = {
      api_key: /api_key:\s+(\S+)/.exec(issued)?.[1] ?? '',
      api_key_secret: /api_key_secret:\s+(\S+)/.exec(issued)?.[1] ?? '',
    };
    const zones = await workspaceApi('get_zones');
    expect(zones.status).toBe(200);
    expect(zones.body.zones).toEqual([
      // Sessions on an origin of their own: the page's host at the sessions port (3003).
      expect.objectContaining({
        name: 'default',
        proxy_hostname: '$request_host$',
        proxy_path: '/',
        proxy_port: 3003,
      }),
    ]);
    const created = await workspaceApi('create_user', {
      target_user: { username: 'compose-ada', password: 'Str0ng!pass' },
    });
    expect(created.status).toBe(200);

    const events = await fetch(`http://127.0.0.1:${ports['calendar-api']}/api/calendar/events`);
    expect(events.status).toBe(200);
    expect(await events.json()).toEqual([]);
  });

  it('keeps the data across down and up: the user, the key and the settings are still there', async () => {
    await stack.compose(['down']);
    expect((await docker(['ps', '-aq'])).trim()).toBe('');
    report(`compose down then up: both services healthy after ${await upUntilHealthy()}`);
    const users = await workspaceApi('get_users');
    expect(users.status).toBe(200);
    expect(users.body.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: 'compose-ada' })]),
    );
    expect((await workspaceApi('get_zones')).body.zones).toHaveLength(1);
  });

  it('leaves no container, network or volume behind after down --volumes', async () => {
    await stack.compose(['down', '--volumes', '--remove-orphans']);
    expect((await docker(['ps', '-aq'])).trim()).toBe('');
    expect((await docker(['volume', 'ls', '-q'])).trim()).toBe('');
    const networks = (await docker(['network', 'ls', '--format', '{{.Name}}']))
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(networks).toEqual(['bridge', 'host', 'none']);
    await waitFor('nothing', async () => true);
  });
});
