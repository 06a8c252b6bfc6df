import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHarness, type Harness } from '../../test/harness';
import { registryList, STANDARD_WORKSPACES } from '../../test/registry-fixtures';
import {
  registryFiles,
  startRegistryServer,
  type RegistryServer,
} from '../../test/registry-server';

const TIMEOUT_MS = 300;
const MAX_BYTES = 16_384;

let h: Harness;
let server: RegistryServer;
let workDir: string;
beforeAll(async () => {
  [h, server, workDir] = await Promise.all([
    createHarness({
      REGISTRY_ALLOW_LOCAL_PATHS: 'true',
      REGISTRY_FETCH_TIMEOUT_MS: String(TIMEOUT_MS),
      REGISTRY_MAX_BYTES: String(MAX_BYTES),
    }),
    startRegistryServer(),
    mkdtemp(path.join(tmpdir(), 'registry-')),
  ]);
});
afterAll(async () => {
  await server.close();
  await h.close();
  await rm(workDir, { recursive: true, force: true });
});
beforeEach(() => h.reset());
afterEach(async () => {
  // Nothing of a registry that failed is stored.
  expect(await h.db.registry.count()).toBe(0);
});

const valid = registryList(STANDARD_WORKSPACES);

async function expectFailure(registry_url: string, status: number, code: string) {
  const res = await h.call('add_registry', { registry_url });
  expect(res.json()).toMatchObject({ status, code, detail: expect.any(String) });
  expect(res.statusCode).toBe(status);
  return res.json();
}

describe('add_registry refuses what is not a usable registry', () => {
  it('answers 400 REGISTRY_UNREACHABLE when nothing listens at the URL', async () => {
    const closed = await startRegistryServer();
    await closed.close();
    const body = await expectFailure(`${closed.origin}/reg`, 400, 'REGISTRY_UNREACHABLE');
    expect(body.detail).toContain('ECONNREFUSED');
  });

  it('answers 400 REGISTRY_UNREACHABLE when the server fails', async () => {
    server.serve('/failing', { 'versions.txt': { status: 500, body: 'oops' } });
    expect(
      (await expectFailure(`${server.origin}/failing`, 400, 'REGISTRY_UNREACHABLE')).detail,
    ).toContain('HTTP 500');
  });

  it('answers 400 REGISTRY_TIMEOUT when the server never answers, within about the configured time', async () => {
    server.serve('/silent', { 'versions.txt': () => undefined });
    const started = Date.now();
    const body = await expectFailure(`${server.origin}/silent`, 400, 'REGISTRY_TIMEOUT');
    // Generous: a loaded machine is slow, but a fetch without a timeout would never end.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 20_000);
    expect(body.detail).toContain(`${TIMEOUT_MS} ms`);
  });

  it('answers 400 REGISTRY_TIMEOUT when the list starts but never finishes', async () => {
    server.serve('/trickle', {
      'versions.txt': '1.0',
      '1.0/list.json': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"name": "Slow", "workspaces": [');
      },
    });
    await expectFailure(`${server.origin}/trickle`, 400, 'REGISTRY_TIMEOUT');
  });

  it('answers 422 REGISTRY_VERSIONS_MISSING when there is no versions.txt', async () => {
    server.serve('/no-versions', { '1.0/list.json': JSON.stringify(valid) });
    const body = await expectFailure(
      `${server.origin}/no-versions`,
      422,
      'REGISTRY_VERSIONS_MISSING',
    );
    expect(body.detail).toContain(`${server.origin}/no-versions/versions.txt`);
  });

  it('answers 422 REGISTRY_VERSION_UNSUPPORTED naming the versions offered', async () => {
    server.serve('/future', registryFiles('2.0\n1.10\n', { '2.0': valid }));
    const body = await expectFailure(
      `${server.origin}/future`,
      422,
      'REGISTRY_VERSION_UNSUPPORTED',
    );
    expect(body.detail).toBe(
      'The registry offers schema versions [2.0, 1.10]; supported are 1.1 and 1.0',
    );
  });

  it('answers 422 REGISTRY_LIST_MISSING when the offered version has no list.json', async () => {
    server.serve('/no-list', { 'versions.txt': '1.0' });
    await expectFailure(`${server.origin}/no-list`, 422, 'REGISTRY_LIST_MISSING');
  });

  it('answers 422 REGISTRY_NOT_JSON for a list that is not JSON', async () => {
    server.serve(
      '/html',
      registryFiles('1.0', { '1.0': '<!doctype html><title>Registry</title>' }),
    );
    expect(
      (await expectFailure(`${server.origin}/html`, 422, 'REGISTRY_NOT_JSON')).detail,
    ).toContain('1.0/list.json');
  });

  it('answers 422 REGISTRY_INVALID, with every problem, for JSON that is not a registry list', async () => {
    server.serve(
      '/not-registry',
      registryFiles('1.0', { '1.0': { registry: 'yes', workspaces: 'none' } }),
    );
    const body = await expectFailure(`${server.origin}/not-registry`, 422, 'REGISTRY_INVALID');
    expect(body.errors).toEqual([
      { field: 'name', message: 'Expected required property' },
      { field: 'workspaces', message: 'Expected array' },
    ]);
  });

  it('answers 422 REGISTRY_TOO_LARGE for a list over the size limit', async () => {
    const huge = registryList(STANDARD_WORKSPACES, { description: 'x'.repeat(MAX_BYTES) });
    server.serve('/large', registryFiles('1.0', { '1.0': huge }));
    expect(
      (await expectFailure(`${server.origin}/large`, 422, 'REGISTRY_TOO_LARGE')).detail,
    ).toContain(`${MAX_BYTES}-byte`);
  });

  it('answers 422 REGISTRY_TOO_LARGE when a server without Content-Length sends too much', async () => {
    server.serve('/stream', {
      'versions.txt': '1.0',
      '1.0/list.json': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = ' '.repeat(4096);
        for (let i = 0; i < 8; i++) res.write(chunk);
        res.end('{}');
      },
    });
    await expectFailure(`${server.origin}/stream`, 422, 'REGISTRY_TOO_LARGE');
  });

  it.each([
    ['ftp://example.com/registry', /not an http\(s\) URL/],
    ['examples/registry', /absolute directory path/],
    ['https://user:pw@example.com/', /credentials/],
  ])('answers 400 REGISTRY_URL_INVALID for %s', async (url, message) => {
    expect((await expectFailure(url, 400, 'REGISTRY_URL_INVALID')).detail).toMatch(message);
  });

  it('answers 400 REGISTRY_UNREACHABLE for a local directory that does not exist', async () => {
    await expectFailure(path.join(workDir, 'nowhere'), 400, 'REGISTRY_UNREACHABLE');
  });

  it('applies the same rules to a local directory: missing versions.txt, too large a list', async () => {
    const dir = path.join(workDir, 'local');
    await mkdir(path.join(dir, '1.0'), { recursive: true });
    await expectFailure(dir, 422, 'REGISTRY_VERSIONS_MISSING');
    await writeFile(path.join(dir, 'versions.txt'), '1.0\n');
    await writeFile(
      path.join(dir, '1.0', 'list.json'),
      JSON.stringify({ ...valid, notes: 'x'.repeat(MAX_BYTES) }),
    );
    await expectFailure(dir, 422, 'REGISTRY_TOO_LARGE');
  });

  it('answers 400 VALIDATION_FAILED without a registry_url', async () => {
    const res = await h.call('add_registry', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'registry_url', message: expect.any(String) }]);
  });
});

describe('local registries are off unless turned on', () => {
  it('refuses a local path and a file:// URL when REGISTRY_ALLOW_LOCAL_PATHS is unset', async () => {
    const strict = await createHarness();
    try {
      expect(strict.config.REGISTRY_ALLOW_LOCAL_PATHS).toBe(false);
      for (const registry_url of [workDir, `file://${workDir}/`]) {
        const res = await strict.call('add_registry', { registry_url });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'REGISTRY_URL_INVALID',
          detail: expect.stringContaining('disabled'),
        });
      }
    } finally {
      await strict.close();
    }
  });
});
