import path from 'node:path';
import type { Harness } from '../../test/harness';
import { useRegistryFixture } from '../../test/registry-routes-fixture';
import { registryList, workspaceEntry } from '../../test/registry-fixtures';
import { registryFiles, type RegistryServer } from '../../test/registry-server';

const EXAMPLE_REGISTRY = path.resolve(__dirname, '../../../../examples/registry');

let h: Harness;
let server: RegistryServer;
const { add, addOk, workspacesOf } = useRegistryFixture((ready) => ({ h, server } = ready));

describe('add_registry', () => {
  it('fetches, validates and stores a 1.0 registry served over HTTP', async () => {
    const registry = await addOk(`${server.origin}/valid`);
    expect(registry).toEqual({
      registry_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      registry_url: `${server.origin}/valid/`,
      name: 'Test Registry',
      description: 'Workspaces for tests',
      icon: 'https://example.com/icon.png',
      list_url: 'https://example.com/registry/',
      contact_url: 'https://example.com/contact',
      schema_version: '1.0',
      workspace_count: 3,
      invalid_workspaces: [],
      last_fetched: expect.any(String),
      created: expect.any(String),
    });
    expect((await h.call('get_registries')).json().registries).toEqual([registry]);
  });

  it('reads a 1.1 registry, preferring 1.1 when versions.txt offers both', async () => {
    const registry = await addOk(`${server.origin}/v11`);
    expect(registry).toMatchObject({ name: 'Eleven', schema_version: '1.1', workspace_count: 1 });
    const { workspaces } = await workspacesOf(registry.registry_id);
    expect(workspaces).toEqual([
      expect.objectContaining({
        name: 'kasmweb/gimp',
        compatibility: ['1.16.x', '1.15.x'],
        image: 'kasmweb/gimp:1.16.1',
        uncompressed_size_mb: 1500,
        available_tags: ['1.16.1', '1.16.1-rolling'],
        compatible: true,
        installed: false,
      }),
    ]);
  });

  it('loads the valid entries of a registry with broken ones, and reports each broken one with its problems', async () => {
    const broken = [
      workspaceEntry(),
      workspaceEntry({ name: 'kasmweb/untagged', docker_registry: 'index.docker.io' }),
      workspaceEntry({ name: 'kasmweb/bad:1', compatibility: '1.16.x', memory: 'lots' }),
      42,
      workspaceEntry({
        name: 'kasmweb/extras:1',
        notes: 'n',
        cores: 4,
        memory: 8192,
        gpu_count: 1,
        volume_mappings: { '/a': {} },
      }),
    ];
    server.serve('/broken', registryFiles('1.0', { '1.0': registryList(broken) }));
    const registry = await addOk(`${server.origin}/broken`);
    expect(registry.workspace_count).toBe(2);
    expect(registry.invalid_workspaces).toEqual([
      {
        index: 1,
        name: 'kasmweb/untagged',
        problems: [
          { field: 'name', message: 'Expected <repository>:<tag>' },
          { field: 'docker_registry', message: 'Expected an http(s) URL' },
        ],
      },
      {
        index: 2,
        name: 'kasmweb/bad:1',
        problems: [
          { field: 'compatibility', message: 'Expected array' },
          { field: 'memory', message: 'Expected number' },
        ],
      },
      { index: 3, name: null, problems: [{ field: 'entry', message: 'Expected object' }] },
    ]);
    const names = (await workspacesOf(registry.registry_id, true)).workspaces.map(
      (w: { name: string }) => w.name,
    );
    expect(names).toEqual(['kasmweb/extras:1', 'kasmweb/terminal:1.16.0']);
  });

  it('loads the example registry shipped in examples/registry from its local path', async () => {
    const registry = await addOk(EXAMPLE_REGISTRY);
    expect(registry).toMatchObject({
      registry_url: `file://${EXAMPLE_REGISTRY}/`,
      workspace_count: 4,
      invalid_workspaces: [],
    });
    const { workspaces, hidden_incompatible } = await workspacesOf(registry.registry_id);
    expect(hidden_incompatible).toBe(0);
    expect(workspaces.map((w: { friendly_name: string }) => w.friendly_name).sort()).toEqual([
      'Firefox',
      'Terminal',
      'Ubuntu Noble Desktop',
      'Visual Studio Code',
    ]);
  });

  it('answers 409 REGISTRY_ALREADY_ADDED for a URL already added, however it is written', async () => {
    await addOk(`${server.origin}/valid`);
    for (const again of [
      `${server.origin}/valid`,
      `${server.origin}/valid/`,
      `${server.origin}/valid/#x`,
    ]) {
      const res = await add(again);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('REGISTRY_ALREADY_ADDED');
    }
  });

  it('stores one registry when the same URL is added several times at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => add(`${server.origin}/valid`)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await h.db.registry.count()).toBe(1);
    expect(await h.db.registryEntry.count()).toBe(3);
  });
});

describe('registry permissions', () => {
  it('needs registries.modify to add, refresh or delete, and images.view to read', async () => {
    const { registry_id } = await addOk(`${server.origin}/valid`);
    const viewer = await h.issueKey(['images.view', 'images.modify']);
    expect(
      (await h.call('add_registry', { registry_url: `${server.origin}/v11` }, viewer)).statusCode,
    ).toBe(403);
    expect((await h.call('refresh_registry', { registry_id }, viewer)).statusCode).toBe(403);
    expect((await h.call('delete_registry', { registry_id }, viewer)).statusCode).toBe(403);
    expect((await h.call('get_registries', {}, viewer)).statusCode).toBe(200);
    expect((await h.call('get_registry_workspaces', { registry_id }, viewer)).statusCode).toBe(200);
    const modifier = await h.issueKey(['registries.modify']);
    expect(
      (await h.call('add_registry', { registry_url: `${server.origin}/v11` }, modifier)).statusCode,
    ).toBe(200);
    expect((await h.call('get_registries', {}, modifier)).statusCode).toBe(403);
  });
});
