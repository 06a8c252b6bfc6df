import { readFile } from 'node:fs/promises';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { ADMINISTRATORS, createGroup, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { registryList, STANDARD_WORKSPACES } from '../registry-fixtures';
import { registryFiles, startRegistryServer, type RegistryServer } from '../registry-server';
import { checkPage, notice, signInAt } from './admin-pages';
import { LONG, useBrowserPages } from './browser-fixture';

jest.setTimeout(4 * LONG);

let h: Harness;
let server: RegistryServer;
let origin: string;
let zoneId: string;

beforeAll(async () => {
  h = await createHarness();
  server = await startRegistryServer();
  server.serve('/reg', registryFiles('1.0\n', { '1.0': registryList(STANDARD_WORKSPACES) }));
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await createMember(h, ADMINISTRATORS, 'root');
  const viewers = await createGroup(h, { name: 'Viewers', permissions: ['images.view'] });
  await createMember(h, viewers.group_id, 'viewer');
  const zone = await h.call('create_zone', {
    target_zone: { name: 'lab', proxy_hostname: 'lab.example.com', proxy_port: 8443 },
  });
  zoneId = (zone.json() as { zone: { zone_id: string } }).zone.zone_id;
  await h.call('create_agent', {
    target_agent: { hostname: 'planner-1', zone_id: zoneId, cores: 8, memory: 17179869184 },
  });
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});
const pages = useBrowserPages(() => origin);
const signIn = (path: string, username = 'root') => signInAt(pages, origin, path, username);

describe('the console in Chromium: Workspaces, Infrastructure, Settings as code', () => {
  it('Workspaces: adds a registry, installs from it, sets a profile path checked as one types, adds a file mapping', async () => {
    const { page } = pages;
    await signIn('/admin/workspaces');
    await page.getByLabel('Add a registry (its address)').fill(`${server.origin}/reg/`);
    await page.getByRole('button', { name: 'Add registry' }).click();
    await notice(page, 'The registry was added.');
    expect(await page.getByText('compatible with 1.16.x').count()).toBe(2);
    await page.getByRole('link', { name: 'Show all' }).click();
    await page.getByText('not compatible with 1.16.x').waitFor();
    await checkPage(page, 'admin-registry');
    await page.getByRole('button', { name: 'Install Firefox' }).click();
    await notice(page, 'The workspace was installed.');

    const path = page.getByLabel('Persistent profile path');
    await path.fill('profiles/{name}');
    const problems = page.locator('#profile-problems');
    await waitFor(
      async () => expect(await problems.textContent()).toContain('absolute path'),
      LONG,
    );
    expect(await problems.textContent()).toContain('unknown placeholder(s) {name}');
    expect(await path.getAttribute('aria-invalid')).toBe('true');
    await path.fill('/mnt/profiles/{username}/{image_id}');
    await waitFor(
      async () => expect(await problems.textContent()).toBe('This path is valid.'),
      LONG,
    );
    await page.getByLabel('Cores').fill('1.5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notice(page, 'The changes were saved.');
    const image = await h.db.image.findFirstOrThrow({ where: { name: 'kasmweb/firefox:1.16.0' } });
    expect(image).toMatchObject({
      cores: 1.5,
      persistentProfilePath: '/mnt/profiles/{username}/{image_id}',
    });

    // The file mapping by keyboard alone: each field, the checkbox, the script, the button.
    await page.locator('#new-name').focus();
    const keys = new Set(['Tab', 'Space', 'Enter']);
    for (const step of [
      ...['Setup', 'Tab', '/dockerstartup/setup.sh', 'Tab', 'Runs first', 'Tab', 'Space', 'Tab'],
      ...['#!/bin/sh', 'Enter', 'echo "ready $KASM_URL"', 'Tab', 'Enter'],
    ]) {
      if (keys.has(step)) await page.keyboard.press(step);
      else await page.keyboard.type(step);
    }
    await notice(page, 'The file mapping was added.');
    const mapping = await h.db.fileMapping.findFirstOrThrow({ where: { imageId: image.id } });
    expect(mapping).toMatchObject({
      name: 'Setup',
      destination: '/dockerstartup/setup.sh',
      description: 'Runs first',
      executable: true,
      content: '#!/bin/sh\necho "ready $KASM_URL"',
    });
    await page.getByText('Setup →').click();
    await checkPage(page, 'admin-workspace');
    await page.getByRole('link', { name: 'Back to Workspaces' }).click();
    await checkPage(page, 'admin-workspaces');
  });

  it("Infrastructure: sets a zone's proxy port to 0, an agent's cores override, adds an engine", async () => {
    const { page } = pages;
    await signIn('/admin/infrastructure');
    await checkPage(page, 'admin-infrastructure');
    const port = page.locator(`#z-${zoneId}-port`);
    expect(await page.locator(`#z-${zoneId}-port-hint`).textContent()).toContain('0 = no port');
    await port.fill('0');
    await page.getByRole('button', { name: 'Save zone lab' }).click();
    await notice(page, 'The zone was saved.');
    expect(await h.db.zone.findUniqueOrThrow({ where: { name: 'lab' } })).toMatchObject({
      proxyPort: 0,
    });

    await page.getByRole('link', { name: 'planner-1' }).click();
    await page.getByLabel('Cores override').fill('12');
    await page.getByLabel('Memory override (MiB)').fill('20480');
    await page.getByRole('button', { name: 'Save overrides' }).click();
    await notice(page, 'The agent was saved.');
    expect(await h.db.agent.findUniqueOrThrow({ where: { hostname: 'planner-1' } })).toMatchObject({
      coresOverride: 12,
      memoryOverride: 20480n * 1024n * 1024n,
    });
    expect(await page.locator('.facts').textContent()).toContain('12 cores, 20.0 GiB');
    await checkPage(page, 'admin-agent');

    await page.getByRole('link', { name: 'Back to Infrastructure' }).click();
    await page.getByText('Add an engine').click();
    await page.getByLabel('Host name', { exact: true }).fill('engine-1');
    await page.getByLabel('Docker engine address').fill('unix:///run/docker.sock');
    await page.getByRole('button', { name: 'Add engine' }).click();
    await notice(page, 'The agent was added.');
    const agent = await h.db.agent.findUniqueOrThrow({ where: { hostname: 'engine-1' } });
    expect(agent.zoneId).toBe(toUuid(zoneId));
    expect(agent.dockerUrl).toBe('unix:///run/docker.sock');
  });

  it('Settings as code: downloads the export, uploads a file, sees the plan as a diff, applies it', async () => {
    const { page } = pages;
    await signIn('/admin/settings');
    await checkPage(page, 'admin-settings');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download the settings/ }).click(),
    ]);
    expect(await readFile(await download.path(), 'utf8')).toContain('version: 1');

    const file =
      'version: 1\nzones:\n  - {name: coded, proxy_hostname: coded.example.com, proxy_port: 0}\n';
    await page.getByLabel('Settings file (YAML or JSON)').setInputFiles({
      name: 'settings.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(file),
    });
    await page.getByRole('button', { name: 'Show the plan' }).click();
    await page.getByText('1 to create, 0 to update, 0 to delete').waitFor();
    expect(await page.locator('#plan .add').textContent()).toBe(
      '+ zone "coded" (https://coded.example.com/)',
    );
    expect(await h.db.zone.count({ where: { name: 'coded' } })).toBe(0);
    await checkPage(page, 'admin-settings-plan');
    await page.getByRole('button', { name: 'Apply these changes' }).click();
    await page.getByRole('status').getByText('Applied 1 change').waitFor();
    expect(await h.db.zone.findUniqueOrThrow({ where: { name: 'coded' } })).toMatchObject({
      proxyPort: 0,
    });
  });

  it('shows a person only what they may do, and refuses a forged or unpermitted post', async () => {
    const { page } = pages;
    await signIn('/admin/workspaces', 'viewer');
    const nav = await page.getByRole('navigation', { name: 'Console sections' }).textContent();
    expect(nav?.replace(/\s+/g, ' ').trim()).toBe('Workspaces');
    expect(await page.getByRole('button', { name: 'Add registry' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Refresh/ }).count()).toBe(0);
    for (const section of ['infrastructure', 'settings'])
      expect((await page.goto(`${origin}/admin/${section}`))?.status()).toBe(403);
    await page.goto(`${origin}/admin/workspaces`);
    const token = await page.evaluate('document.querySelector(\'input[name="_csrf"]\').value');
    const url = encodeURIComponent(`${server.origin}/forged/`);
    const post = (body: string) =>
      page.evaluate(
        `fetch('/admin/workspaces/registries/add', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: ${JSON.stringify(body)} }).then((r) => r.status)`,
      );
    expect(await post(`registry_url=${url}`)).toBe(403);
    expect(await post(`registry_url=${url}&_csrf=${encodeURIComponent(String(token))}`)).toBe(403);
    expect(await h.db.registry.count({ where: { url: { contains: '/forged/' } } })).toBe(0);
  });
});
