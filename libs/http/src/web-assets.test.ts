import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { pageAssets } from './web-assets';

let dir: string;
let app: FastifyInstance;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'page-assets-'));
  await writeFile(path.join(dir, 'page.js'), 'console.log("page");\n');
  await writeFile(path.join(dir, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dir, 'secret.txt'), 'not a page file');
  app = Fastify();
  await app.register(pageAssets, {
    prefix: '/assets',
    files: { 'page.js': path.join(dir, 'page.js'), 'icon.svg': path.join(dir, 'icon.svg') },
    notFound: (reply, name) => reply.code(404).send(`no ${name}`),
  });
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe('pageAssets', () => {
  it.each([
    ['page.js', 'text/javascript; charset=utf-8', 'console.log'],
    ['icon.svg', 'image/svg+xml', '<svg'],
    ['base.css', 'text/css; charset=utf-8', 'font-family'],
  ])('sends %s with its type, never sniffed, cached for five minutes', async (file, type, text) => {
    const res = await app.inject({ url: `/assets/${file}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body).toContain(text);
  });

  it('answers a revalidation with its ETag by 304 and no body', async () => {
    const first = await app.inject({ url: '/assets/page.js' });
    expect(first.headers.etag).toBeTruthy();
    const again = await app.inject({
      url: '/assets/page.js',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it.each(['secret.txt', '..%2Fpage.js', '%2E%2E%2Fsecret.txt', 'x'.repeat(64)])(
    'serves only the named files: %s is not found',
    async (name) => {
      const res = await app.inject({ url: `/assets/${name}` });
      expect(res.statusCode).toBe(404);
      expect(res.body).toMatch(/^no /);
    },
  );

  it('refuses a name longer than 64 characters with 400', async () => {
    expect((await app.inject({ url: `/assets/${'x'.repeat(65)}` })).statusCode).toBe(400);
  });
});
