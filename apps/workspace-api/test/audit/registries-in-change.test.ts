import { describeInChange } from './audit-in-change';
import type { Harness } from '../harness';
import { registryList, STANDARD_WORKSPACES } from '../registry-fixtures';
import { registryFiles, startRegistryServer, type RegistryServer } from '../registry-server';

// add_registry, refresh_registry, delete_registry and install_workspace write their audit event
// in the change's own transaction; the registry's fetch comes before it.

let server: RegistryServer;
beforeAll(async () => {
  server = await startRegistryServer();
  server.serve('/valid', registryFiles('1.0\n', { '1.0': registryList(STANDARD_WORKSPACES) }));
});
afterAll(() => server.close());

const url = () => `${server.origin}/valid/`;
async function added(h: Harness) {
  const res = await h.call('add_registry', { registry_url: url() });
  expect(res.statusCode).toBe(200);
  return { registry_id: res.json().registry.registry_id as string };
}
const registries = (h: Harness) =>
  h.db.registry.findMany({ select: { url: true, fetchedAt: true } });
const registryIdOf = (body: Record<string, unknown>) => String(body.registry_id);

describeInChange([
  {
    operation: 'add_registry',
    table: 'registry',
    arrange: async () => ({ registry_url: url() }),
    state: registries,
    targetId: (_body, answer) => answer.registry.registry_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ registry_url: url(), workspace_count: 3 });
    },
  },
  {
    operation: 'refresh_registry',
    table: 'registry',
    arrange: added,
    state: registries,
    targetId: registryIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ registry_url: url() });
      expect(after).toMatchObject({ registry_url: url() });
      const fetched = (snapshot: unknown) => (snapshot as { last_fetched: string }).last_fetched;
      expect(fetched(after) > fetched(before)).toBe(true);
    },
  },
  {
    operation: 'delete_registry',
    table: 'registry',
    arrange: added,
    state: registries,
    targetId: registryIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ registry_url: url() });
      expect(after).toBeNull();
    },
  },
  {
    operation: 'install_workspace',
    table: 'image',
    arrange: async (h) => ({ ...(await added(h)), name: 'kasmweb/terminal:1.16.0' }),
    state: (h) => h.db.image.count(),
    targetId: (_body, answer) => answer.image.image_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ name: 'kasmweb/terminal:1.16.0' });
    },
  },
]);
