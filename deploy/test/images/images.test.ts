import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVICES } from '../support/repo';
import { imageOf } from './support/app-images';
import {
  publishedAddress,
  removeContainers,
  report,
  seconds,
  state,
  waitAnswer,
  waitExited,
  waitHealthy,
} from './support/containers';
import { docker, inspect, waitFor } from './support/docker';

interface ImageInfo {
  Size: number;
  Config: { User: string; Env: string[]; Healthcheck?: { Test: string[] } };
}

/** The paths the lockfile marks `dev`: reachable from dev dependencies only. */
function devOnlyPaths(): Set<string> {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  return new Set(Object.entries(lock.packages).flatMap(([at, entry]) => (entry.dev ? [at] : [])));
}
const RUNTIME_PACKAGES = ['fastify', 'pg', '@prisma/client', '@prisma/adapter-pg'];

const MB = 1024 * 1024;

describe.each(SERVICES)('$name image, built by a real engine from the Dockerfile', (service) => {
  const image = imageOf(service);
  const suffix = randomBytes(4).toString('hex');
  const network = `deploy-image-${suffix}`;
  const postgres = `deploy-image-postgres-${suffix}`;
  const app = `deploy-image-${service.name}-${suffix}`;
  const password = randomBytes(12).toString('hex');
  const env = [
    '-e',
    `DATABASE_URL=postgres://postgres:${password}@${postgres}:5432/platform`,
    '-e',
    `DATABASE_SCHEMA=${service.schema}`,
  ];
  const inImage = (command: string[]) =>
    docker([
      'run',
      '--rm',
      '--network',
      network,
      '--entrypoint',
      command[0],
      image,
      ...command.slice(1),
    ]);

  beforeAll(async () => {
    await docker(['network', 'create', network]);
    await docker([
      'run',
      '-d',
      '--name',
      postgres,
      '--network',
      network,
      '-e',
      `POSTGRES_PASSWORD=${password}`,
      '-e',
      'POSTGRES_DB=platform',
      'postgres:15',
    ]);
    await waitFor('postgres accepting connections', () =>
      docker(['exec', postgres, 'pg_isready', '--host', '127.0.0.1', '--dbname', 'platform']).then(
        () => true,
        () => undefined,
      ),
    );
    await docker([
      'run',
      '--rm',
      '--network',
      network,
      ...env,
      image,
      'node',
      `apps/${service.name}/dist/cli.js`,
      'migrate',
    ]);
  });

  afterAll(async () => {
    await removeContainers(app, postgres);
    await docker(['network', 'rm', network]).catch(() => undefined);
  });

  it('declares a non-root user, its own HEALTHCHECK and no secret in its environment', async () => {
    const { Config } = await inspect<ImageInfo>(image);
    expect(Config.User).toBe('1000:1000');
    expect(Config.Healthcheck?.Test.join(' ')).toMatch(/\/health\/live/);
    expect(
      Config.Env.filter((e) => /PASSWORD|SECRET|TOKEN|KEY|DATABASE_URL/i.test(e.split('=')[0])),
    ).toEqual([]);
  });

  it('starts as non-root on a read-only root filesystem, is ready on a real database and turns healthy', async () => {
    const started = Date.now();
    await docker([
      'run',
      '-d',
      '--name',
      app,
      '--read-only',
      '--network',
      network,
      '-p',
      `127.0.0.1::${service.port}`,
      ...env,
      image,
    ]);
    const base = await publishedAddress(app, service.port);
    await waitFor('/health/ready answering 200', async () =>
      (await waitAnswer(`${base}/health/ready`)) === 200 ? true : undefined,
    );
    const ready = seconds(started);
    expect((await docker(['exec', app, 'id', '-u'])).trim()).toBe('1000');
    expect((await docker(['exec', app, 'sh', '-c', 'touch /tmp/x 2>&1 || true'])).trim()).toMatch(
      /Read-only file system/,
    );
    await waitHealthy(app);
    report(
      `${service.name}: /health/ready 200 ${ready} after docker run, healthy by its HEALTHCHECK after ${seconds(started)}`,
    );
  });

  it('exits 0 on SIGTERM', async () => {
    expect((await state(app)).Running).toBe(true);
    const stopping = Date.now();
    await docker(['kill', '--signal', 'SIGTERM', app]);
    expect(await waitExited(app)).toBe(0);
    report(`${service.name}: exited 0 ${seconds(stopping)} after SIGTERM`);
  });

  it('holds the bundle, its migrations and production dependencies only: no sources, tests or secrets', async () => {
    const files = (
      await inImage([
        'find',
        '/app',
        '-name',
        'node_modules',
        '-prune',
        '-o',
        '-type',
        'f',
        '-print',
      ])
    )
      .split('\n')
      .filter(Boolean)
      .sort();
    report(`${service.name}: files outside node_modules:\n  ${files.join('\n  ')}`);
    const allowed = [
      /^\/app\/(package\.json|package-lock\.json|\.npmrc)$/,
      /^\/app\/(apps|libs)\/[\w-]+\/package\.json$/,
      new RegExp(
        `^/app/apps/${service.name}/dist/([\\w.-]+\\.js(\\.map)?|assets/[\\w.-]+\\.(js|css|svg))$`,
      ),
      new RegExp(
        `^/app/prisma/${service.name}/migrations/(migration_lock\\.toml|\\d{14}_\\w+/migration\\.sql)$`,
      ),
      new RegExp(`^/app/prisma/${service.name}/functions/\\w+\\.sql$`),
    ];
    expect(files.filter((f) => !allowed.some((pattern) => pattern.test(f)))).toEqual([]);
    expect(files).toContain(`/app/apps/${service.name}/dist/server.js`);
    const functions = path.join(ROOT, 'prisma', service.name, 'functions');
    for (const sql of existsSync(functions) ? readdirSync(functions) : []) {
      expect(files).toContain(`/app/prisma/${service.name}/functions/${sql}`);
    }
    expect(await inImage(['cat', '/app/.npmrc'])).not.toMatch(/_auth|token|password/i);

    // Every node_modules folder npm made: the root's and those of workspaces needing other versions.
    const packages = (
      await inImage([
        'sh',
        '-c',
        'cd /app && for d in $(find . -name node_modules -prune); do ls -d $d/* $d/@*/* 2>/dev/null || true; done',
      ])
    )
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^\.\//, ''));
    report(`${service.name}: ${packages.length} packages in node_modules`);
    const devOnly = devOnlyPaths();
    expect(packages.filter((at) => devOnly.has(at))).toEqual([]);
    for (const runtime of RUNTIME_PACKAGES) expect(packages).toContain(`node_modules/${runtime}`);

    // As root, to see into /root too. Published packages' own test fixtures (ssh2's and
    // @fastify/reply-from's sample keys) are public and stay out of the search.
    const secrets = await docker([
      'run',
      '--rm',
      '--user',
      '0',
      '--entrypoint',
      'find',
      image,
      ...['/app', '/home', '/root', '-xdev', '-name', 'node_modules', '-prune', '-o'],
      ...[
        '(',
        '-name',
        '.env*',
        '-o',
        '-name',
        '*.pem',
        '-o',
        '-name',
        '*.key',
        '-o',
        '-name',
        'id_*',
        ')',
      ],
      '-print',
    ]);
    expect(secrets.trim()).toBe('');
  });

  it('prints its size and what dominates it, far below a development install', async () => {
    const { Size } = await inspect<ImageInfo>(image);
    const du = await inImage([
      'sh',
      '-c',
      'du -sm /usr/local/bin/node /app/node_modules /app/node_modules/@prisma/client/runtime /usr/lib /usr/share /var 2>/dev/null; cd /app/node_modules && du -sm * @*/* | sort -rn | head -5',
    ]);
    report(
      `${service.name}: image ${(Size / MB).toFixed(0)} MB; largest parts (MB):\n  ${du.trim().split('\n').join('\n  ')}`,
    );
    // The target; the build stage's full install alone is over 1 GB.
    expect(Size).toBeLessThan(250 * MB);
  });
});
