import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dockerignore } from './support/build-context';
import { execForm, lineage, parseDockerfile, type Stage, type Step } from './support/dockerfile';
import { ROOT, SERVICES } from './support/repo';

const readJson = (file: string) =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as {
    dependencies?: Record<string, string>;
  };

/** The folders of every @platform workspace a package depends on, directly or not. */
function workspaceDeps(folder: string, seen = new Set<string>()): Set<string> {
  for (const dep of Object.keys(readJson(`${folder}/package.json`).dependencies ?? {})) {
    const lib = `libs/${dep.replace('@platform/', '')}`;
    if (dep.startsWith('@platform/') && !seen.has(lib)) workspaceDeps(lib, seen.add(lib));
  }
  return seen;
}

const steps = (stages: Stage[], keyword: string) =>
  stages.flatMap((s) => s.steps).filter((s) => s.keyword === keyword);
const last = (stages: Stage[], keyword: string): Step | undefined => steps(stages, keyword).at(-1);

const DOCKERFILE = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

describe("Dockerfile's check of APP", () => {
  // The steps of the first stage that read APP before anything is copied: they must stop the build.
  const guards = (app: string | undefined) => {
    const [first] = parseDockerfile(DOCKERFILE, app === undefined ? {} : { APP: app });
    const copy = first.steps.findIndex((s) => s.keyword === 'COPY');
    return first.steps
      .slice(0, copy === -1 ? undefined : copy)
      .filter((s) => s.keyword === 'RUN' && /\$\{?APP\b/.test(s.source));
  };
  const run = (step: Step) => spawnSync('sh', ['-c', step.text], { encoding: 'utf8', env: {} });

  it.each([undefined, '', 'nope', 'apps'])(
    'stops before copying anything with APP=%j, naming the argument',
    (app) => {
      const failed = guards(app)
        .map(run)
        .find((result) => result.status !== 0);
      expect(failed?.stderr).toMatch(
        /--build-arg APP=workspace-api\b.*--build-arg APP=calendar-api\b/,
      );
    },
  );

  it.each(SERVICES.map((s) => s.name))('goes on with APP=%s', (app) => {
    expect(guards(app).length).toBeGreaterThan(0);
    for (const step of guards(app)) expect(run(step).status).toBe(0);
  });
});

describe.each(SERVICES)('Dockerfile with APP=$name', ({ name, port }) => {
  const stages = parseDockerfile(DOCKERFILE, { APP: name });
  const final = stages.at(-1) as Stage;
  const runtime = lineage(stages, final.name);
  const build = lineage(stages, 'build');

  it('builds in a separate stage on node:20-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const images = stages.filter((s) => !stages.some((t) => t.name === s.from)).map((s) => s.from);
    expect(new Set(images)).toEqual(new Set(['node:20-bookworm-slim']));
    expect(runtime.map((s) => s.name)).not.toContain('build');
  });

  it('generates the Prisma client and bundles the service in the build stage', () => {
    const runs = steps(build, 'RUN').map((s) => s.text);
    expect(runs).toContainEqual(
      expect.stringContaining(`npm run prisma-generate -w @platform/${name}`),
    );
    expect(runs).toContainEqual(expect.stringContaining(`node tools/build-app.mjs ${name}`));
  });

  it('copies the manifest of every workspace the service depends on before installing', () => {
    const manifests = new Set(
      build.flatMap((stage) => {
        const firstInstall = stage.steps.findIndex(
          (s) => s.keyword === 'RUN' && /npm (install|ci)/.test(s.text),
        );
        const before = firstInstall === -1 ? stage.steps : stage.steps.slice(0, firstInstall);
        return before.filter((s) => s.keyword === 'COPY').flatMap((s) => s.args.slice(0, -1));
      }),
    );
    for (const folder of [`apps/${name}`, ...workspaceDeps(`apps/${name}`)]) {
      expect(manifests).toContain(`${folder}/package.json`);
    }
  });

  it('installs exactly what package-lock.json locks, in both stages (npm ci)', () => {
    const installs = [...steps(build, 'RUN'), ...steps(runtime, 'RUN')].filter((s) =>
      /\bnpm (install|i|ci)\b/.test(s.text),
    );
    expect(installs.length).toBeGreaterThanOrEqual(2);
    for (const install of installs) expect(install.text).toMatch(/^npm ci\b/);
  });

  it('installs production dependencies only in the final image', () => {
    const installs = steps(runtime, 'RUN').filter((s) => /npm (install|ci)/.test(s.text));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install.text).toMatch(/--omit=dev\b/);
    const fromBuild = steps(runtime, 'COPY').filter((s) => s.flags.from);
    expect(fromBuild.map((s) => s.args)).toEqual([
      [`/app/prisma/${name}/functions`, `prisma/${name}/functions`],
      [`/app/apps/${name}/dist`, `apps/${name}/dist`],
    ]);
  });

  it('puts the migrations and the SQL functions files where the bundled CLI looks for them', () => {
    const workdir = last(runtime, 'WORKDIR')?.text as string;
    const dist = path.posix.resolve(workdir, `apps/${name}/dist`);
    const copied = steps(runtime, 'COPY').map((s) =>
      path.posix.resolve(workdir, s.args.at(-1) as string),
    );
    expect(copied).toContain(path.posix.resolve(dist, `../../../prisma/${name}/migrations`));
    // libs/db's migrate reads the functions folder beside the migrations one.
    expect(copied).toContain(path.posix.resolve(dist, `../../../prisma/${name}/functions`));
  });

  it('runs as a numeric non-root user', () => {
    const user = last(runtime, 'USER')?.text ?? 'root';
    expect(user).toMatch(/^[0-9]+(:[0-9]+)?$/);
    expect(user.split(':')[0]).not.toBe('0');
  });

  it('checks /health/live on the port it exposes, the one the service listens on', () => {
    expect(final.env.PORT).toBe(String(port));
    expect(last(runtime, 'EXPOSE')?.text).toBe(String(port));
    expect(last(runtime, 'HEALTHCHECK')?.text).toMatch(/^CMD \[/);
    const check = execForm((last(runtime, 'HEALTHCHECK')?.text as string).replace(/^CMD\s+/, ''));
    expect(check.slice(0, 2)).toEqual(['node', '-e']);
    expect(check[2]).toContain(`'http://127.0.0.1:' + process.env.PORT + '/health/live'`);
  });

  it("starts the server under tini, node in place of the shell so that it gets the signals, and Node's flags", () => {
    expect(execForm(last(runtime, 'ENTRYPOINT')?.text as string)).toEqual(['/usr/bin/tini', '--']);
    // Shell form, resolved with the image's ENV only: what the container's shell runs.
    expect(final.env.APP).toBe(name);
    // Node's own flags are the image's NODE_OPTIONS (tools/test/service-node-flags.test.ts).
    expect(last(runtime, 'CMD')?.text).toMatch(
      new RegExp(`^exec node (--[a-z-]+=\\S+ )*apps/${name}/dist/server\\.js$`),
    );
  });
});

describe('.dockerignore', () => {
  const ignored = dockerignore(readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));

  it.each([
    'node_modules/fastify/package.json',
    'libs/http/node_modules/ajv/package.json',
    'apps/workspace-api/dist/server.js',
    'apps/calendar-api/src/generated/prisma/client.ts',
    'apps/workspace-api/.env',
    '.git/HEAD',
    '.data/postgres/PG_VERSION',
    'libs/db/src/migrate.test.ts',
    'apps/workspace-api/test/harness.ts',
  ])('leaves %s out of the build context', (file) => {
    expect(ignored(file)).toBe(true);
  });

  it.each([
    'package-lock.json',
    'apps/workspace-api/src/server.ts',
    'libs/db/src/migrate.ts',
    'prisma/calendar-api/migrations/20261121000000_init/migration.sql',
    'tools/build-app.mjs',
  ])('keeps %s in the build context', (file) => {
    expect(ignored(file)).toBe(false);
  });
});
