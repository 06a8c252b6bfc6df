import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHarness, type Harness } from '../harness';
import { createImage } from '../image-factories';
import { startRegistryServer, type RegistryServer } from '../registry-server';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';

let h: Harness;
let server: RegistryServer;
let dir: string;
beforeAll(async () => {
  h = await createHarness();
  server = await startRegistryServer();
  dir = await mkdtemp(path.join(tmpdir(), 'icons-'));
  await mkdir(path.join(dir, '1.0', 'icons'), { recursive: true });
  await writeFile(path.join(dir, '1.0', 'icons', 'local.svg'), SVG);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await server.close();
  await h.close();
});

async function installedFrom(url: string, imageSrc: string) {
  const registry = await h.db.registry.upsert({
    where: { url },
    create: { url, name: `Registry ${url}`, schemaVersion: '1.0', fetchedAt: new Date() },
    update: {},
  });
  return createImage(h.db, { registryId: registry.id, imageSrc });
}
const icon = (imageId: string) => h.inject({ method: 'GET', url: `/icons/${imageId}` });

describe('workspace icons', () => {
  it('fetches icons from the registry in the background and serves them from the database', async () => {
    server.serve('/reg', {
      '1.0/icons/terminal.png': (_req, res) =>
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
    });
    const http = await installedFrom(`${server.origin}/reg/`, 'terminal.png');
    const local = await installedFrom(pathToFileURL(dir).href + '/', 'local.svg');
    await h.app.sessionWorker.round();

    const png = await icon(http);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.equals(PNG)).toBe(true);
    const svg = await icon(local);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body).toBe(SVG);
    // An SVG opened on its own runs nothing.
    expect(svg.headers['content-security-policy']).toContain('sandbox');
    const stored = await h.db.imageIcon.findMany();
    expect(stored.map((s) => s.sourceUrl).sort()).toEqual(
      [
        `${server.origin}/reg/1.0/icons/terminal.png`,
        `${pathToFileURL(dir).href}/1.0/icons/local.svg`,
      ].sort(),
    );
  });

  it('falls back to the built-in icon when there is none, and records why', async () => {
    server.serve('/gone', {});
    const missing = await installedFrom(`${server.origin}/gone/`, 'nothing.png');
    const escaping = await installedFrom(pathToFileURL(dir).href + '/', '../../../etc/passwd.png');
    const none = await createImage(h.db, { imageSrc: '' });
    await h.app.sessionWorker.round();

    for (const imageId of [missing, escaping, none, 'abcdefabcdefabcdefabcdefabcdefab']) {
      const res = await icon(imageId);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.body).toContain('aria-label="Workspace"');
    }
    const problems = await h.db.imageIcon.findMany({ where: { data: null } });
    expect(problems.map((p) => p.problem)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('answered HTTP 404'),
        expect.stringContaining('points outside the registry'),
      ]),
    );
    expect(problems).toHaveLength(2);
  });
});
