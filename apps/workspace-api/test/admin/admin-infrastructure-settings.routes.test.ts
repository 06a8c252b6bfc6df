import { toWireId } from '@platform/schemas';
import { createHarness, type Harness } from '../harness';
import { signedInWith, submit } from './admin-fixtures';
import { postMultipart } from './admin-multipart';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  await h.db.agent.deleteMany();
  await h.db.zone.deleteMany();
});

const zoneForm = {
  name: 'lab',
  proxy_hostname: 'lab.example.com',
  proxy_port: '8443',
  proxy_path: '/',
};

describe('the Infrastructure section', () => {
  it('adds a zone, sets its proxy port to 0, adds an engine and overrides its cores', async () => {
    const { client } = await signedInWith(h, ['settings.view', 'settings.modify']);
    const page = '/admin/infrastructure';
    expect((await submit(client, page, `${page}/zones/create`, zoneForm)).statusCode).toBe(303);
    const zone = await h.db.zone.findUniqueOrThrow({ where: { name: 'lab' } });
    const index = await client.get(page);
    expect(index.body).toContain('0 = no port in session URLs');
    const bad = await submit(client, page, `${page}/zones/${toWireId(zone.id)}`, {
      ...zoneForm,
      proxy_port: '70000',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('proxy_port: must be from 0 to 65535');
    const saved = await submit(client, page, `${page}/zones/${toWireId(zone.id)}`, {
      ...zoneForm,
      proxy_port: '0',
      proxy_path: '/desk/',
    });
    expect(saved.statusCode).toBe(303);
    expect(await h.db.zone.findUniqueOrThrow({ where: { id: zone.id } })).toMatchObject({
      proxyPort: 0,
      proxyPath: '/desk/',
    });
    expect((await client.get(page)).body).toContain('>lab.example.com/desk/<');

    // An allowed socket with no engine behind it: added, and offline with the engine's reason.
    const created = await submit(client, page, `${page}/agents/create`, {
      hostname: 'agent-9',
      zone_id: toWireId(zone.id),
      docker_url: 'unix:///run/docker.sock',
    });
    expect(created.statusCode).toBe(303);
    const agentPage = String(created.headers.location).split('?')[0];
    const agent = await h.db.agent.findUniqueOrThrow({ where: { hostname: 'agent-9' } });
    expect(agent.status).toBe('offline');
    expect((await client.get(agentPage)).body).toContain(agent.statusReason.replace(/'/g, '&#39;'));

    const refused = await submit(client, page, `${page}/agents/create`, {
      hostname: 'agent-10',
      zone_id: toWireId(zone.id),
      docker_url: 'unix:///tmp/elsewhere.sock',
    });
    expect(refused.statusCode).toBe(400);

    const overridden = await submit(client, agentPage, agentPage, {
      cores_override: '12',
      memory_override_mib: '2048',
    });
    expect(overridden.statusCode).toBe(303);
    expect(await h.db.agent.findUniqueOrThrow({ where: { id: agent.id } })).toMatchObject({
      coresOverride: 12,
      memoryOverride: 2048n * 1024n * 1024n,
    });
  });

  it('shows a viewer no forms and refuses their posts', async () => {
    const { client } = await signedInWith(h, ['settings.view']);
    const page = await client.get('/admin/infrastructure');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Add an engine');
    expect(page.body).not.toContain('Add zone');
    const lacking = await submit(
      client,
      '/admin/infrastructure',
      '/admin/infrastructure/zones/create',
      zoneForm,
    );
    expect(lacking.statusCode).toBe(403);
    expect(await h.db.zone.count()).toBe(0);
  });
});

const planOf = (page: string) => /name="plan" value="([0-9a-f]{64})"/.exec(page)?.[1] ?? '';

const SETTINGS = `version: 1
zones:
  - {name: coded, proxy_hostname: coded.example.com, proxy_port: 0}
`;

describe('the Settings as code section', () => {
  it('downloads the export, plans an upload as a diff and applies it', async () => {
    const { client } = await signedInWith(h, ['settings.view', 'settings.modify']);
    await client.get('/admin/settings');
    const exported = await client.get('/admin/settings/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('settings.yaml');
    expect(exported.body).toContain('version: 1');

    const plan = await postMultipart(h, client, '/admin/settings/plan', {}, { file: SETTINGS });
    expect(plan.statusCode).toBe(200);
    expect(plan.body).toContain('1 to create, 0 to update, 0 to delete');
    expect(plan.body).toContain(
      '<span class="add">+ zone &quot;coded&quot; (https://coded.example.com/)</span>',
    );
    expect(await h.db.zone.count()).toBe(0);

    const applied = await postMultipart(h, client, '/admin/settings/apply', {
      file: SETTINGS,
      plan: planOf(plan.body),
    });
    expect(applied.statusCode).toBe(200);
    expect(applied.body).toContain('Applied 1 change');
    expect(await h.db.zone.findUniqueOrThrow({ where: { name: 'coded' } })).toMatchObject({
      proxyPort: 0,
    });
  });

  it('shows the new plan instead of applying when the settings changed since the plan', async () => {
    const { client } = await signedInWith(h, ['settings.view', 'settings.modify']);
    await client.get('/admin/settings');
    const plan = await postMultipart(h, client, '/admin/settings/plan', {}, { file: SETTINGS });
    await h.call('create_zone', {
      target_zone: { name: 'coded', proxy_hostname: 'coded.example.com', proxy_port: 443 },
    });
    const applied = await postMultipart(h, client, '/admin/settings/apply', {
      file: SETTINGS,
      plan: planOf(plan.body),
    });
    expect(applied.body).toContain('The settings changed since that plan was shown');
    expect(applied.body).toContain('~ zone &quot;coded&quot;: proxy_port 443 → 0');
    const zone = await h.db.zone.findUniqueOrThrow({ where: { name: 'coded' } });
    expect(zone.proxyPort).toBe(443);
  });

  it('lists every problem of an invalid file and writes nothing', async () => {
    const { client } = await signedInWith(h, ['settings.view', 'settings.modify']);
    await client.get('/admin/settings');
    const text =
      'version: 1\nzones:\n  - {name: x, proxy_hostname: "bad host", proxy_port: 99999}\n';
    const plan = await postMultipart(h, client, '/admin/settings/plan', {}, { file: text });
    expect(plan.body).toContain('settings.yaml:3:');
    expect(plan.body).toContain('proxy_port');
    expect(plan.body).not.toContain('Apply these changes');
  });

  it('tells a viewer’s plan nothing of the server’s files: every TLS path outside ENGINE_TLS_DIR gets one message', async () => {
    const { client } = await signedInWith(h, ['settings.view']);
    await client.get('/admin/settings');
    const agent = (name: string, file: string) =>
      `  - {hostname: ${name}, zone: z, docker_url: "tcp://10.0.0.5:2376", tls_ca_path: ${file}, tls_cert_path: ${file}, tls_key_path: ${file}}\n`;
    const text = `version: 1\nzones: [{name: z, proxy_hostname: z.example.com}]\nagents:\n${agent('a', '/etc/passwd')}${agent('b', '/etc/no-such-file')}${agent('c', '/root')}`;
    const plan = await postMultipart(h, client, '/admin/settings/plan', {}, { file: text });
    const messages = [...plan.body.matchAll(/agents\[(\d)\]\.tls_ca_path[^<]*?: ([^<]*)</g)].map(
      (m) => [m[1], m[2]],
    );
    expect(messages.map(([agentIndex]) => agentIndex)).toEqual(['0', '1', '2']);
    expect(new Set(messages.map(([, message]) => message)).size).toBe(1);
    expect(plan.body).toContain('ENGINE_TLS_DIR');
    expect(plan.body).not.toContain('root:x:0:0');
  });

  it('lets a viewer plan but not apply, and refuses a forged upload', async () => {
    const { client } = await signedInWith(h, ['settings.view']);
    await client.get('/admin/settings');
    const plan = await postMultipart(h, client, '/admin/settings/plan', {}, { file: SETTINGS });
    expect(plan.body).toContain('+ zone');
    expect(plan.body).not.toContain('Apply these changes');
    const apply = await postMultipart(h, client, '/admin/settings/apply', { file: SETTINGS });
    expect(apply.statusCode).toBe(403);
    const forged = await postMultipart(
      h,
      client,
      '/admin/settings/plan',
      { file: SETTINGS },
      {},
      {
        csrf: false,
      },
    );
    expect(forged.statusCode).toBe(403);
    expect(await h.db.zone.count()).toBe(0);
    const { client: other } = await signedInWith(h, ['images.view']);
    expect((await other.get('/admin/settings')).statusCode).toBe(403);
  });
});
