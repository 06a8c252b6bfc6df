import { toUuid } from '@platform/schemas';
import { createHarness, type Harness } from '../harness';
import { registryList, STANDARD_WORKSPACES } from '../registry-fixtures';
import { registryFiles, startRegistryServer, type RegistryServer } from '../registry-server';
import { createImage } from '../image-factories';
import { FILE_MAPPING_BODY_LIMIT_BYTES } from '../../src/file-mappings';
import { signedInWith, submit } from './admin-fixtures';
import { postMultipart } from './admin-multipart';

let h: Harness;
let server: RegistryServer;
beforeAll(async () => {
  h = await createHarness();
  server = await startRegistryServer();
  server.serve('/reg', registryFiles('1.0\n', { '1.0': registryList(STANDARD_WORKSPACES) }));
});
afterAll(async () => {
  await server.close();
  await h.close();
});
beforeEach(async () => {
  await h.reset();
  await h.db.fileMapping.deleteMany();
  await h.db.image.deleteMany();
  await h.db.registry.deleteMany();
});

const registryIdOf = (location: string) => /registries\/([0-9a-f]{32})/.exec(location)?.[1] ?? '';

describe('the Workspaces section', () => {
  it('adds a registry from a real server, browses it with compatibility and installs', async () => {
    const { client } = await signedInWith(h, ['global_admin']);
    const added = await submit(client, '/admin/workspaces', '/admin/workspaces/registries/add', {
      registry_url: `${server.origin}/reg/`,
    });
    expect(added.statusCode).toBe(303);
    const registryId = registryIdOf(String(added.headers.location));
    const browse = await client.get(String(added.headers.location));
    expect(browse.body).toContain('The registry was added.');
    expect(browse.body).toContain('compatible with 1.16.x');
    expect(browse.body).toContain('1 incompatible hidden');
    expect(browse.body).not.toContain('Legacy');
    const all = await client.get(`/admin/workspaces/registries/${registryId}?all=1`);
    expect(all.body).toContain('not compatible with 1.16.x');
    expect(all.body).toContain('Install anyway');

    const installed = await submit(
      client,
      `/admin/workspaces/registries/${registryId}`,
      `/admin/workspaces/registries/${registryId}/install`,
      { name: 'kasmweb/firefox:1.16.0' },
    );
    expect(installed.statusCode).toBe(303);
    expect(installed.headers.location).toMatch(
      /\/admin\/workspaces\/images\/[0-9a-f]{32}\?done=installed$/,
    );
    const image = await h.db.image.findFirstOrThrow({ where: { name: 'kasmweb/firefox:1.16.0' } });
    expect(image.registryId).toBe(toUuid(registryId));
    const again = await client.get(`/admin/workspaces/registries/${registryId}`);
    expect(again.body).toMatch(
      /<strong>Installed<\/strong> as\s*<a href="\/admin\/workspaces\/images\/[0-9a-f]{32}">Firefox<\/a>\s*<\/p>/,
    );

    const incompatible = await submit(
      client,
      `/admin/workspaces/registries/${registryId}?all=1`,
      `/admin/workspaces/registries/${registryId}/install`,
      { name: 'kasmweb/legacy:1.10.0' },
    );
    expect(incompatible.statusCode).toBe(409);
    expect(incompatible.body).toContain('1.16.x');

    const refreshed = await submit(
      client,
      '/admin/workspaces',
      `/admin/workspaces/registries/${registryId}/refresh`,
    );
    expect(refreshed.headers.location).toContain('done=refreshed');
  });

  it("saves a workspace's cores, memory, profile path and enabled through update_image's rules", async () => {
    const imageId = await createImage(h.db);
    const { client } = await signedInWith(h, ['images.view', 'images.modify']);
    const page = `/admin/workspaces/images/${imageId}`;
    const form = { friendly_name: 'Tools', cores: '1.5', memory_mb: '3000', enabled: 'on' };
    const bad = await submit(client, page, page, { ...form, persistent_profile_path: '/p/{x}/..' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('{username} or {user_id}');
    const outOfRange = await submit(client, page, page, {
      ...form,
      cores: '2000',
      persistent_profile_path: '',
    });
    expect(outOfRange.statusCode).toBe(400);
    expect(outOfRange.body).toContain('cores: must be from 0.01 to 1024');

    const saved = await submit(client, page, page, {
      ...form,
      persistent_profile_path: '/mnt/profiles/{username}/{image_id}',
    });
    expect(saved.statusCode).toBe(303);
    const row = await h.db.image.findUniqueOrThrow({ where: { id: toUuid(imageId) } });
    expect(row).toMatchObject({
      friendlyName: 'Tools',
      cores: 1.5,
      memory: 3_000_000_000n,
      persistentProfilePath: '/mnt/profiles/{username}/{image_id}',
      enabled: true,
    });
    // Without settings.view the file mappings are not shown at all.
    expect((await client.get(page)).body).not.toContain('File mappings');
  });

  it('checks a profile path as one types with the server rules, under the CSRF token', async () => {
    const imageId = await createImage(h.db);
    const { client } = await signedInWith(h, ['images.view']);
    await client.get(`/admin/workspaces/images/${imageId}`);
    const check = (path: string, token = client.csrf()) =>
      h.inject({
        method: 'POST',
        url: '/admin/workspaces/profile-path-check',
        headers: {
          cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-csrf-token': token,
        },
        payload: { path },
      });
    expect((await check('/p/{user_id}')).json()).toEqual({ problems: [] });
    const { problems } = (await check('relative/{nope}')).json() as { problems: string[] };
    expect(problems.join(' ')).toMatch(
      /absolute path.*unknown placeholder.*\{username\} or \{user_id\}/,
    );
    expect((await check('/p/{user_id}', 'forged')).statusCode).toBe(403);
  });

  it("adds, edits and deletes a workspace's file mapping, its script sent as a multipart form", async () => {
    const imageId = await createImage(h.db);
    const { client } = await signedInWith(h, ['images.view', 'settings.view', 'settings.modify']);
    const page = `/admin/workspaces/images/${imageId}`;
    await client.get(page);
    const script = '#!/bin/sh\r\necho "hello $KASM_URL"\r\n';
    const fields = { name: 'Setup', destination: '/dockerstartup/setup.sh', executable: 'on' };
    const created = await postMultipart(h, client, `${page}/mappings/create`, {
      ...fields,
      description: 'Runs first',
      content: script,
    });
    expect(created.statusCode).toBe(303);
    const mapping = await h.db.fileMapping.findFirstOrThrow({
      where: { imageId: toUuid(imageId) },
    });
    expect(mapping).toMatchObject({
      name: 'Setup',
      executable: true,
      content: '#!/bin/sh\necho "hello $KASM_URL"\n',
    });
    const shown = await client.get(page);
    expect(shown.body).toContain('echo &quot;hello $KASM_URL&quot;');

    const mid = mapping.id.replace(/-/g, '');
    const badPath = await postMultipart(h, client, `${page}/mappings/${mid}`, {
      ...fields,
      destination: '/etc/../passwd',
    });
    expect(badPath.statusCode).toBe(400);
    await client.get(page);
    await postMultipart(h, client, `${page}/mappings/${mid}`, { ...fields, content: 'echo 2' });
    expect((await h.db.fileMapping.findFirstOrThrow()).content).toBe('echo 2');
    const removed = await submit(client, page, `${page}/mappings/${mid}/delete`);
    expect(removed.statusCode).toBe(303);
    expect(await h.db.fileMapping.count()).toBe(0);
  });

  it('refuses a malformed or oversized multipart form with a 400, changing nothing', async () => {
    const imageId = await createImage(h.db);
    const { client } = await signedInWith(h, ['images.view', 'settings.view', 'settings.modify']);
    const url = `/admin/workspaces/images/${imageId}/mappings/create`;
    await client.get(`/admin/workspaces/images/${imageId}`);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const malformed = await h.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'multipart/form-data' },
      payload: 'no boundary',
    });
    expect(malformed.statusCode).toBe(400);
    const huge = await postMultipart(h, client, url, {
      name: 'Big',
      destination: '/big.txt',
      content: 'x'.repeat(FILE_MAPPING_BODY_LIMIT_BYTES + 1),
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.body).toContain('The form is over');
    expect(await h.db.fileMapping.count()).toBe(0);
  });

  it('shows a viewer no forms and refuses their posts and forged ones', async () => {
    const imageId = await createImage(h.db);
    const { client } = await signedInWith(h, ['images.view']);
    const index = await client.get('/admin/workspaces');
    expect(index.statusCode).toBe(200);
    expect(index.body).not.toContain('Add registry');
    const page = await client.get(`/admin/workspaces/images/${imageId}`);
    expect(page.body).not.toContain('<form method="post" action="/admin/workspaces/images');
    const form = { friendly_name: 'X', cores: '1', memory_mb: '1000', persistent_profile_path: '' };
    const lacking = await submit(
      client,
      '/admin/workspaces',
      `/admin/workspaces/images/${imageId}`,
      form,
    );
    expect(lacking.statusCode).toBe(403);
    expect(lacking.body).toContain('images.modify');
    const forged = await client.post('/admin/workspaces/registries/add', {
      registry_url: `${server.origin}/reg/`,
    });
    expect(forged.statusCode).toBe(403);
    const mapping = await postMultipart(
      h,
      client,
      `/admin/workspaces/images/${imageId}/mappings/create`,
      { name: 'n', destination: '/a/b' },
    );
    expect(mapping.statusCode).toBe(403);
    expect(await h.db.registry.count()).toBe(0);
    expect(await h.db.fileMapping.count()).toBe(0);
    // Without images.view the section is neither listed nor reachable.
    const { client: other } = await signedInWith(h, ['sessions.view']);
    expect((await other.get('/admin/sessions')).body).not.toContain('href="/admin/workspaces"');
    expect((await other.get('/admin/workspaces')).statusCode).toBe(403);
  });
});
