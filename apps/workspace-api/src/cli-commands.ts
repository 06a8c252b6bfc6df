// The commands of the CLI (cli.ts): each loads only what it uses (the Docker client, YAML, the
// registry's archive reader) through import(), so it starts in a fraction of the time the whole
// service would take.
import { publicBaseUrl, toUuid } from '@platform/schemas';
import {
  createApiKeyFence,
  createApiKeysRepository,
  createApiKeysService,
  PERMISSIONS,
  type IssuedApiKey,
  type Permission,
} from './api-keys';
import { configReferenceText, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db';
import { migrateDatabase } from './migrations';
import { apiKeyChange, issueFirstKey } from './setup';

const print = (line = '') => process.stdout.write(`${line}\n`);

function printIssued({ apiKey, secret }: IssuedApiKey, baseUrl: string) {
  print(`API key "${apiKey.name}" issued. The secret is shown only now; store it safely.`);
  print(`  api_key:        ${apiKey.key}`);
  print(`  api_key_secret: ${secret}`);
  print(
    `  permissions:    ${apiKey.permissions.join(', ')}${apiKey.readOnly ? ' (read-only)' : ''}`,
  );
  print();
  print('Try it:');
  print(`  curl -s -X POST ${baseUrl}/api/public/get_users \\`);
  print(`    -H 'content-type: application/json' \\`);
  print(`    -d '{"api_key": "${apiKey.key}", "api_key_secret": "${secret}"}'`);
}

async function setUpLocalAgent(database: Database, config: Config) {
  const [
    { createEngines },
    { enginePolicy },
    { registerLocalAgent, localAgentServices },
    { consoleOriginOf },
    { createInstallationRepository },
  ] = await Promise.all([
    import('./docker'),
    import('./engines'),
    import('./agents'),
    import('./zones'),
    import('./installation'),
  ]);
  const policy = enginePolicy(config);
  // Failures reach the operator through the reason printed below.
  const engines = createEngines({
    policy,
    log: { warn: () => undefined },
    installation: createInstallationRepository(database),
  });
  const result = await registerLocalAgent({
    engines,
    ...localAgentServices(database, engines, policy, consoleOriginOf(config)),
    dockerHost: config.DOCKER_HOST,
    port: config.PORT,
    record: (await hostAudit(database, 'cli')).record,
    sessionPort: config.SESSION_PORT,
  });
  if (result.registered) {
    const gib = (result.memory / 1024 ** 3).toFixed(1);
    print(
      `Sessions run on the Docker engine at ${result.url}: agent "local" (${result.cores} cores, ${gib} GiB)${result.created ? ' registered' : ''}.`,
    );
  } else {
    print(`No Docker engine answers at ${result.url} (${result.reason}).`);
    print('Sessions answer 503 until an agent is added; everything else works (docs/sessions.md).');
  }
}

function parsePermissions(values: string[]): Permission[] {
  const unknown = values.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`Unknown permission(s): ${unknown.join(', ')}`);
  if (values.length === 0) throw new Error('Give at least one --permission');
  return values as Permission[];
}

/** What a command that works on the database gets: its config, the database and the API keys. */
interface Session {
  config: Config;
  database: Database;
  apiKeys: ReturnType<typeof createApiKeysService>;
}

/** Loads the config, opens the database for `work` and closes it after. */
async function withDatabase(work: (session: Session) => Promise<void>, config = loadConfig()) {
  const database = openDatabase(config);
  try {
    // A revocation returns once every running server's key cache has dropped the key.
    const fence = createApiKeyFence({
      database,
      warn: (m) => process.stderr.write(`${m}\n`),
    });
    const apiKeys = createApiKeysService({ keys: createApiKeysRepository(database), fence });
    await work({ config, database, apiKeys });
  } finally {
    await database.close();
  }
}

export async function migrate(config: Config) {
  const { applied } = await migrateDatabase(config);
  print(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
}

export async function setup() {
  const config = loadConfig();
  await migrate(config);
  await withDatabase(async ({ database, apiKeys }) => {
    const issued = await issueFirstKey(apiKeys, await hostAudit(database, 'cli'));
    if (issued) printIssued(issued, publicBaseUrl(config));
    const { hasAdministrator } = await import('./admin-console');
    if (!(await hasAdministrator(database))) {
      print('No administrator yet. Make the first one (it signs in at /admin):');
      print('  npm run workspace -- admin create <username>');
    }
    if (config.LOCAL_AGENT === 'on') await setUpLocalAgent(database, config);
  }, config);
}

export interface CreateKeyOptions {
  name?: string;
  permission: string[];
  readOnly: boolean;
  expires?: string;
}

export const createKey = (options: CreateKeyOptions) =>
  withDatabase(async ({ config, database, apiKeys }) => {
    if (!options.name) throw new Error('Give the key a --name');
    const expiresAt = options.expires ? new Date(options.expires) : null;
    if (expiresAt && Number.isNaN(expiresAt.getTime()))
      throw new Error(`--expires is not a date: ${options.expires}`);
    const permissions = parsePermissions(options.permission);
    const issued = await apiKeys.issue({
      name: options.name,
      permissions,
      readOnly: options.readOnly,
      expiresAt,
    });
    await (await hostAudit(database, 'cli')).record(apiKeyChange('create_api_key', issued.apiKey));
    printIssued(issued, publicBaseUrl(config));
  });

export const listKeys = () =>
  withDatabase(async ({ apiKeys }) => {
    for (const key of await apiKeys.list()) {
      const state = key.revokedAt
        ? 'revoked'
        : key.expiresAt && key.expiresAt <= new Date()
          ? 'expired'
          : 'active';
      print(
        `${key.id.replace(/-/g, '')}  ${key.key}  ${state.padEnd(7)}  ${key.name}  [${key.permissions.join(', ')}]${key.readOnly ? ' read-only' : ''}`,
      );
    }
  });

export const revokeKey = (target: string) =>
  withDatabase(async ({ database, apiKeys }) => {
    const byId = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(target);
    const revoked = await apiKeys.revoke(byId ? { id: toUuid(target) } : { key: target });
    await (await hostAudit(database, 'cli')).record(apiKeyChange('revoke_api_key', revoked));
    print(`Revoked API key "${revoked.name}" (${revoked.key})`);
  });

export const admin = (args: string[], password: string | undefined) =>
  withDatabase(async ({ config, database }) => {
    const { runAdminCommand } = await import('./admin-console');
    await runAdminCommand(args, password, {
      out: print,
      database,
      config,
      baseUrl: publicBaseUrl(config),
      record: (await hostAudit(database, 'cli')).record,
    });
  });

export const registry = (args: string[], flags: { force: boolean; all: boolean }) =>
  withDatabase(async ({ config, database }) => {
    const { runRegistryCommand } = await import('./registry');
    await runRegistryCommand(args, flags, {
      ...io(),
      database,
      config,
      record: (await hostAudit(database, 'cli')).record,
    });
  });

export async function settings(args: string[], flags: { prune: boolean; dryRun: boolean }) {
  if (args[0] === 'schema') {
    const { runSettingsSchemaCommand } = await import('./settings');
    return runSettingsSchemaCommand(args[1], io());
  }
  await withDatabase(async ({ config, database }) => {
    const [
      {
        runSettingsCommand,
        createSettingsService,
        createSettingsRepository,
        auditedSettingsChanges,
      },
      { enginePolicy },
      { consoleOriginOf },
    ] = await Promise.all([import('./settings'), import('./engines'), import('./zones')]);
    const { trail, context } = await hostAudit(database, 'settings-file');
    const service = createSettingsService({
      settings: createSettingsRepository(database),
      enginePolicy: enginePolicy(config),
      consoleOrigin: consoleOriginOf(config),
      recordChanges: (tx, changes) => trail.recordIn(tx, context, auditedSettingsChanges(changes)),
    });
    await runSettingsCommand(args, flags, { ...io(), settings: service });
  });
}

export async function configReference(file: string | undefined) {
  const { emitText } = await import('./settings');
  return emitText(configReferenceText(), file, io(), 'the configuration reference');
}

// npm runs scripts from the package's folder; INIT_CWD is where the command was typed.
const io = () => ({ out: print, err: process.stderr, cwd: process.env.INIT_CWD ?? process.cwd() });

/** The audit trail of commands run on the host, loaded on demand as the commands' features are. */
async function hostAudit(database: Database, channel: 'cli' | 'settings-file') {
  const { createHostAudit } = await import('./audit');
  return createHostAudit(database, channel);
}
