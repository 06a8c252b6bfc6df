import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { interpolate, loadCompose } from './support/compose';
import { ROOT, SERVICES } from './support/repo';

const INIT_SCRIPT = 'deploy/compose/init-service-roles.sh';

/** The role the init script creates for a service when nothing overrides it. */
const defaultRole = (schema: string) =>
  new RegExp(`\\$\\{${schema.toUpperCase()}_DB_USER:-([a-z_]+)\\}`).exec(
    readFileSync(path.join(ROOT, INIT_SCRIPT), 'utf8'),
  )?.[1];

/** The variables a service reads: those its .env.example lists or its config.ts names. */
const readsVariable = (service: string, variable: string) =>
  [`apps/${service}/.env.example`, `apps/${service}/src/config.ts`].some((file) =>
    new RegExp(`\\b${variable}\\b`).test(readFileSync(path.join(ROOT, file), 'utf8')),
  );

describe('interpolate', () => {
  it.each([
    ['${A:-x}', {}, 'x'],
    ['${A:-x}', { A: '' }, 'x'],
    ['${A-x}', { A: '' }, ''],
    ['${A:-x}', { A: 'set' }, 'set'],
    ['$A/${B}', { A: 'a', B: 'b' }, 'a/b'],
    ['$$A', { A: 'a' }, '$A'],
  ])('reads %s with %j as Compose does', (value, env, expected) => {
    expect(interpolate(value, env, new Set())).toBe(expected);
  });
});

describe('docker-compose.yml', () => {
  const { compose, unset } = loadCompose();

  it('runs PostgreSQL, a migration job per service, the settings job and the services', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'postgres',
        'workspace-api-settings',
        ...SERVICES.flatMap((s) => [s.name, `${s.name}-migrate`]),
      ].sort(),
    );
  });

  it('has a default for every variable it reads, dev-only for every password', () => {
    expect([...unset]).toEqual([]);
    const postgres = compose.services.postgres.environment ?? {};
    for (const key of ['POSTGRES_PASSWORD', 'WORKSPACE_DB_PASSWORD', 'CALENDAR_DB_PASSWORD']) {
      expect(postgres[key]).toMatch(/dev-only$/);
    }
  });

  it('keeps PostgreSQL 15 in a named volume, healthy only once the init script has run', () => {
    const postgres = compose.services.postgres;
    expect(postgres.image).toBe('postgres:15');
    expect(postgres.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes)).toEqual(['postgres-data']);
    const mount = postgres.volumes?.find((v) =>
      v.includes('/docker-entrypoint-initdb.d/'),
    ) as string;
    expect(mount).toMatch(
      new RegExp(`^\\./${INIT_SCRIPT}:/docker-entrypoint-initdb\\.d/[\\w.-]+\\.sh:ro$`),
    );
    expect(() => accessSync(path.join(ROOT, INIT_SCRIPT), constants.X_OK)).not.toThrow();
    expect(postgres.healthcheck?.test).toEqual([
      'CMD-SHELL',
      expect.stringMatching(/^pg_isready --host 127\.0\.0\.1 /),
    ]);
  });

  it('re-applies the workspace-api settings after its migration, from a read-only folder', () => {
    const settings = compose.services['workspace-api-settings'];
    expect(settings.image).toBe(compose.services['workspace-api'].image);
    expect(settings.command).toEqual([
      'node',
      'apps/workspace-api/dist/cli.js',
      'settings',
      'apply',
      '/config/settings.yaml',
    ]);
    expect(settings.depends_on).toEqual({
      'workspace-api-migrate': { condition: 'service_completed_successfully' },
    });
    expect(settings.volumes).toEqual(['./deploy/k8s/base/workspace-api/settings:/config:ro']);
    expect(
      existsSync(path.join(ROOT, 'deploy/k8s/base/workspace-api/settings/settings.yaml')),
    ).toBe(true);
    expect(settings.restart).toBe('no');
  });

  describe.each(SERVICES)('$name', ({ name, port, schema }) => {
    const service = compose.services[name];
    const migrate = compose.services[`${name}-migrate`];

    it('builds one image from the Dockerfile, with APP naming the service, for the job and the service', () => {
      expect(service.image).toBe(`workspace-platform/${name}:dev`);
      expect(service.build).toEqual({
        context: '.',
        dockerfile: 'Dockerfile',
        args: { APP: name },
      });
      expect(existsSync(path.join(ROOT, service.build?.dockerfile as string))).toBe(true);
      expect(migrate.image).toBe(service.image);
      expect(migrate.build).toEqual(service.build);
    });

    it('migrates once PostgreSQL is healthy, as a one-shot job', () => {
      expect(migrate.command).toEqual(['node', `apps/${name}/dist/cli.js`, 'migrate']);
      expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
      expect(migrate.restart).toBe('no');
      expect(migrate.healthcheck).toEqual({ disable: true });
    });

    it("starts the image's own command after its migration succeeded", () => {
      expect(service.command).toBeUndefined();
      expect(service.healthcheck).toBeUndefined();
      // workspace-api also waits for its settings, which wait for the migration.
      const ready = name === 'workspace-api' ? `${name}-settings` : `${name}-migrate`;
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        [ready]: { condition: 'service_completed_successfully' },
      });
      expect(service.ports?.[0]).toBe(`127.0.0.1:${port}:${port}`);
    });

    it('connects the job and the service as its own role to its own schema', () => {
      for (const { environment = {} } of [service, migrate]) {
        const url = new URL(environment.DATABASE_URL);
        expect(url.username).toBe(defaultRole(schema));
        expect(url.host).toBe('postgres:5432');
        expect(url.pathname).toBe(`/${compose.services.postgres.environment?.POSTGRES_DB}`);
        expect(environment.DATABASE_SCHEMA).toBe(schema);
      }
    });

    it('passes only variables the service reads', () => {
      const unknown = Object.keys(service.environment ?? {}).filter((v) => !readsVariable(name, v));
      expect(unknown).toEqual([]);
    });
  });

  it('takes passwords and ports from the environment, the same password on both sides', () => {
    const { compose: custom } = loadCompose({
      WORKSPACE_DB_PASSWORD: 'w-secret',
      CALENDAR_DB_PASSWORD: 'c-secret',
      WORKSPACE_API_PORT: '8001',
      IMAGE_TAG: '1.2.3',
    });
    const postgres = custom.services.postgres.environment ?? {};
    const password = (service: string) =>
      new URL(custom.services[service].environment?.DATABASE_URL as string).password;
    expect(postgres.WORKSPACE_DB_PASSWORD).toBe('w-secret');
    expect(password('workspace-api')).toBe('w-secret');
    expect(password('workspace-api-migrate')).toBe('w-secret');
    expect(postgres.CALENDAR_DB_PASSWORD).toBe('c-secret');
    expect(password('calendar-api')).toBe('c-secret');
    expect(custom.services['workspace-api'].ports).toEqual([
      '127.0.0.1:8001:3001',
      '127.0.0.1:3003:3003',
    ]);
    // Sessions on a listener of their own, another origin than the console's.
    expect(custom.services['workspace-api'].environment?.SESSION_PORT).toBe(3003);
    // What `cli.js setup` prints in its example must be the published port.
    expect(custom.services['workspace-api'].environment?.PUBLIC_URL).toBe('http://localhost:8001');
    expect(custom.services['calendar-api'].environment?.PUBLIC_URL).toBe('http://localhost:3002');
    expect(custom.services['calendar-api-migrate'].image).toBe(
      'workspace-platform/calendar-api:1.2.3',
    );
  });
});
