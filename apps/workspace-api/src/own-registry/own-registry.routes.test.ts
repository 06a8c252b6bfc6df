import { createHarness, type Harness } from '../../test/harness';
import { OWN_WORKSPACES } from './own-workspaces';

let h: Harness;
let origin: string;

beforeAll(async () => {
  h = await createHarness({ PLATFORM_VERSION: '1.17.4' });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => h.close());

describe("workspace-api's own registry", () => {
  it('serves versions.txt and a 1.1 list whose every image is listed for this platform series', async () => {
    const versions = await h.inject({ method: 'GET', url: '/registry/versions.txt' });
    expect(versions.statusCode).toBe(200);
    expect(versions.body).toBe('1.1\n');
    const list = await h.inject({ method: 'GET', url: '/registry/1.1/list.json' });
    expect(list.statusCode).toBe(200);
    const workspaces = list.json().workspaces;
    expect(workspaces.map((w: { friendly_name: string }) => w.friendly_name)).toEqual([
      'Desktop',
      'Development',
      'Firefox',
    ]);
    for (const w of workspaces) {
      expect(w.compatibility).toEqual([expect.objectContaining({ version: '1.17.x' })]);
      // Plain keys only: port, scheme and credentials come from the platform's defaults.
      expect(w).not.toHaveProperty('run_config');
      expect(w).not.toHaveProperty('exec_config');
    }
  });

  it('is added by its own URL, with every workspace valid and compatible, and installs as the built image', async () => {
    const added = await h.call('add_registry', { registry_url: `${origin}/registry/` });
    expect(added.statusCode).toBe(200);
    const registry = added.json().registry;
    expect(registry).toMatchObject({
      name: 'Workspace Platform',
      schema_version: '1.1',
      workspace_count: OWN_WORKSPACES.length,
      invalid_workspaces: [],
    });
    const listed = await h.call('get_registry_workspaces', { registry_id: registry.registry_id });
    expect(listed.json().workspaces.every((w: { compatible: boolean }) => w.compatible)).toBe(true);
    const installed = await h.call('install_workspace', {
      registry_id: registry.registry_id,
      name: 'Desktop',
    });
    expect(installed.statusCode).toBe(200);
    expect(installed.json().image).toMatchObject({
      name: 'workspace-platform/desktop:1.0',
      friendly_name: 'Desktop',
      cores: 1,
      memory: 1536 * 1_000_000,
      run_config: {},
    });
  });

  it('serves the icons the list names, and a 404 problem for any other', async () => {
    for (const w of OWN_WORKSPACES) {
      const icon = await h.inject({ method: 'GET', url: `/registry/1.1/icons/${w.icon}` });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(icon.body).toMatch(/^<svg /);
    }
    const missing = await h.inject({ method: 'GET', url: '/registry/1.1/icons/nothing.svg' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'REGISTRY_FILE_NOT_FOUND' });
    const odd = await h.inject({ method: 'GET', url: '/registry/1.1/icons/..%2Fsecret.svg' });
    expect(odd.statusCode).toBe(400);
  });
});
