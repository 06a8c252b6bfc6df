import type { Harness } from '../../test/harness';
import { registryList, workspaceEntry } from '../../test/registry-fixtures';
import {
  registryFiles,
  startRegistryServer,
  type RegistryServer,
} from '../../test/registry-server';
import {
  settingsSnapshot,
  useSettingsFixture,
  type SettingsFixture,
} from '../../test/settings-files';

const fixture = useSettingsFixture();
let h: Harness;
let server: RegistryServer;
let apply: SettingsFixture['apply'];
beforeAll(async () => {
  ({ h, apply } = fixture);
  server = await startRegistryServer();
  const files = registryFiles('1.0\n', {
    '1.0': registryList([workspaceEntry({ name: 'acme/desk:1.0' })]),
  });
  server.serve('/one', files);
  server.serve('/two', files);
});
afterAll(() => server.close());

/** Installs acme/desk:1.0 from both registries and gives each copy a profile path of its own. */
async function installTwice(): Promise<string[]> {
  const ids: string[] = [];
  for (const [prefix, profile] of [
    ['/one', '/one/{username}'],
    ['/two', '/two/{username}'],
  ]) {
    const added = await h.call('add_registry', { registry_url: `${server.origin}${prefix}` });
    const { registry_id } = added.json().registry;
    const installed = await h.call('install_workspace', { registry_id, name: 'acme/desk:1.0' });
    expect(installed.statusCode).toBe(200);
    const { image_id } = installed.json().image;
    await h.call('update_image', {
      target_image: { image_id, persistent_profile_path: profile },
    });
    ids.push(image_id);
  }
  return ids;
}

describe('settings names of installed workspaces', () => {
  it('gives a second copy of the same image a settings name of its own, kept when the first goes', async () => {
    const [first, second] = await installTwice();
    const names = async () =>
      Object.fromEntries(
        (await h.call('get_images'))
          .json()
          .images.map((i: { image_id: string; settings_name: string }) => [
            i.image_id,
            i.settings_name,
          ]),
      );
    expect(await names()).toMatchObject({
      [first]: 'acme/desk:1.0',
      [second]: 'acme/desk:1.0 (2)',
    });
    await h.call('delete_image', { target_image: { image_id: first } });
    expect((await names())[second]).toBe('acme/desk:1.0 (2)');
  });

  it('survives settings export then apply with one entry installed from two registries', async () => {
    await installTwice();
    const exported = await fixture.files.write('dupes.yaml', await fixture.settings.export());
    expect(exported).toBeTruthy();
    const before = await settingsSnapshot(h);
    expect(await apply(exported)).toMatchObject({ status: 'unchanged', problems: [] });
    expect(await apply(exported, { prune: true })).toMatchObject({
      status: 'unchanged',
      problems: [],
    });
    expect(await settingsSnapshot(h)).toEqual(before);
  });

  it('applies a profile path to the copy its settings name picks', async () => {
    const [, second] = await installTwice();
    const file = await fixture.files.write(
      'second.yaml',
      'version: 1\nworkspaces: [{name: "acme/desk:1.0 (2)", persistent_profile_path: "/new/{user_id}"}]\n',
    );
    expect(await apply(file)).toMatchObject({ status: 'applied', problems: [] });
    const images = (await h.call('get_images')).json().images;
    const profiles = Object.fromEntries(
      images.map((i: { image_id: string; persistent_profile_path: string }) => [
        i.image_id,
        i.persistent_profile_path,
      ]),
    );
    expect(profiles[second]).toBe('/new/{user_id}');
    expect(Object.values(profiles)).toContain('/one/{username}');
  });
});
