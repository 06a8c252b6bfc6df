import { createHarness, type Harness } from './harness';
import { registryList, STANDARD_WORKSPACES, workspaceEntryV11 } from './registry-fixtures';
import { registryFiles, startRegistryServer, type RegistryServer } from './registry-server';

export interface RegistryFixture {
  h: Harness;
  /** Serves `/valid` (schema 1.0, STANDARD_WORKSPACES) and `/v11` (schema 1.1) before each test. */
  server: RegistryServer;
  add: (registry_url: string) => ReturnType<Harness['call']>;
  /** add_registry that must succeed; answers the registry. */
  addOk: (registry_url: string) => Promise<{ registry_id: string } & Record<string, unknown>>;
  // The wire body, loosely typed as LightMyRequestResponse['json'] answers it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  workspacesOf: (registry_id: string, show_incompatible?: boolean) => Promise<any>;
}

/**
 * Registers the hooks of a registry route test file; the returned object is filled by beforeAll,
 * which then hands it to `use` (to set the file's `h` and `server`).
 */
export function useRegistryFixture(use: (fixture: RegistryFixture) => void): RegistryFixture {
  const fixture = {
    add: (registry_url: string) => fixture.h.call('add_registry', { registry_url }),
    addOk: async (registry_url: string) => {
      const res = await fixture.add(registry_url);
      expect(res.statusCode).toBe(200);
      return res.json().registry;
    },
    workspacesOf: async (registry_id: string, show_incompatible?: boolean) =>
      (await fixture.h.call('get_registry_workspaces', { registry_id, show_incompatible })).json(),
  } as RegistryFixture;
  beforeAll(async () => {
    [fixture.h, fixture.server] = await Promise.all([
      createHarness({ REGISTRY_ALLOW_LOCAL_PATHS: 'true' }),
      startRegistryServer(),
    ]);
    use(fixture);
  });
  afterAll(async () => {
    await fixture.server.close();
    await fixture.h.close();
  });
  beforeEach(async () => {
    await fixture.h.reset();
    fixture.server.serve(
      '/valid',
      registryFiles('1.0\n', { '1.0': registryList(STANDARD_WORKSPACES) }),
    );
    fixture.server.serve(
      '/v11',
      registryFiles('1.0\n1.1\n', {
        '1.1': registryList([workspaceEntryV11('kasmweb/gimp')], { name: 'Eleven' }),
      }),
    );
  });
  return fixture;
}
