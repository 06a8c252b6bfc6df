import { UNKNOWN_ID } from '../../test/factories';
import type { Harness } from '../../test/harness';
import { useRegistryFixture } from '../../test/registry-routes-fixture';
import { registryList, STANDARD_WORKSPACES, workspaceEntry } from '../../test/registry-fixtures';
import { registryFiles, type RegistryServer } from '../../test/registry-server';

let h: Harness;
let server: RegistryServer;
const { addOk, workspacesOf } = useRegistryFixture((ready) => ({ h, server } = ready));

describe('get_registry_workspaces', () => {
  it('hides incompatible workspaces unless asked, and says how many it hid', async () => {
    const { registry_id } = await addOk(`${server.origin}/valid`);
    const shown = await workspacesOf(registry_id);
    expect(shown).toMatchObject({ platform_version: '1.16.x', hidden_incompatible: 1 });
    expect(shown.workspaces.map((w: { friendly_name: string }) => w.friendly_name)).toEqual([
      'Firefox',
      'Terminal',
    ]);
    const all = await workspacesOf(registry_id, true);
    expect(all.hidden_incompatible).toBe(0);
    expect(
      all.workspaces.map((w: { friendly_name: string; compatible: boolean }) => [
        w.friendly_name,
        w.compatible,
      ]),
    ).toEqual([
      ['Firefox', true],
      ['Legacy', false],
      ['Terminal', true],
    ]);
  });

  it('returns each workspace with its configuration and the extras', async () => {
    const { registry_id } = await addOk(`${server.origin}/valid`);
    const firefox = (await workspacesOf(registry_id)).workspaces[0];
    expect(firefox).toEqual({
      name: 'kasmweb/firefox:1.16.0',
      friendly_name: 'Firefox',
      description: 'A minimal terminal',
      image_src: 'firefox.png',
      docker_registry: 'https://index.docker.io/v1/',
      run_config: { hostname: 'kasm' },
      exec_config: {
        go: { cmd: 'bash -c "xdg-open $KASM_URL"' },
        assign: { cmd: 'echo assigned' },
      },
      categories: ['Browser'],
      architecture: ['amd64', 'arm64'],
      compatibility: ['1.15.x', '1.16.x'],
      image: 'kasmweb/firefox:1.16.0',
      uncompressed_size_mb: 1200,
      available_tags: [],
      notes: null,
      cores: 2,
      memory: 2768,
      gpu_count: null,
      volume_mappings: null,
      cpu_allocation_method: null,
      compatible: true,
      installed: false,
      ignored_config: [],
    });
  });

  it('answers 404 REGISTRY_NOT_FOUND for an unknown registry', async () => {
    const res = await h.call('get_registry_workspaces', { registry_id: UNKNOWN_ID });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('REGISTRY_NOT_FOUND');
  });
});

describe('refresh_registry', () => {
  it('fetches again and reports the workspaces added, changed and removed', async () => {
    const { registry_id } = await addOk(`${server.origin}/valid`);
    const [terminal, firefox] = STANDARD_WORKSPACES;
    const next = [
      { ...terminal },
      { ...firefox, cores: 4 },
      workspaceEntry({ name: 'kasmweb/gimp:1.16.0', friendly_name: 'GIMP' }),
    ];
    server.serve(
      '/valid',
      registryFiles('1.0', { '1.0': registryList(next, { name: 'Renamed' }) }),
    );
    const res = await h.call('refresh_registry', { registry_id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      added: ['kasmweb/gimp:1.16.0'],
      changed: ['kasmweb/firefox:1.16.0'],
      removed: ['kasmweb/legacy:1.10.0'],
      registry: { name: 'Renamed', workspace_count: 3 },
    });
    const all = (await workspacesOf(registry_id, true)).workspaces;
    expect(
      all.map((w: { friendly_name: string; cores: number | null }) => [w.friendly_name, w.cores]),
    ).toEqual([
      ['Firefox', 4],
      ['GIMP', null],
      ['Terminal', null],
    ]);
  });

  it('reports no change when nothing changed', async () => {
    const { registry_id } = await addOk(`${server.origin}/v11`);
    expect((await h.call('refresh_registry', { registry_id })).json()).toMatchObject({
      added: [],
      changed: [],
      removed: [],
    });
  });

  it('keeps the stored workspaces when the registry cannot be fetched', async () => {
    const { registry_id } = await addOk(`${server.origin}/valid`);
    server.serve('/valid', { 'versions.txt': { status: 503 } });
    const res = await h.call('refresh_registry', { registry_id });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('REGISTRY_UNREACHABLE');
    expect((await workspacesOf(registry_id, true)).workspaces).toHaveLength(3);
  });

  it('answers 404 for an unknown registry', async () => {
    expect((await h.call('refresh_registry', { registry_id: UNKNOWN_ID })).json().code).toBe(
      'REGISTRY_NOT_FOUND',
    );
  });
});

describe('delete_registry', () => {
  it('deletes a registry and its entries, keeping workspaces installed from it', async () => {
    const { registry_id } = await addOk(`${server.origin}/valid`);
    await h.call('install_workspace', { registry_id, name: 'kasmweb/terminal:1.16.0' });
    expect((await h.call('delete_registry', { registry_id })).json()).toEqual({});
    expect((await h.call('get_registries')).json().registries).toEqual([]);
    expect(await h.db.registryEntry.count()).toBe(0);
    const { images } = (await h.call('get_images')).json();
    expect(images).toEqual([
      expect.objectContaining({
        name: 'kasmweb/terminal:1.16.0',
        registry_id: null,
        registry_entry: 'kasmweb/terminal:1.16.0',
      }),
    ]);
    expect((await h.call('delete_registry', { registry_id })).json().code).toBe(
      'REGISTRY_NOT_FOUND',
    );
  });
});
