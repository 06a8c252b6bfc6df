import { cliProgram, runCli, type Command } from '@platform/cli';
import { PERMISSIONS } from './api-keys';
import {
  admin,
  configReference,
  createKey,
  listKeys,
  migrate,
  registry,
  revokeKey,
  settings,
  setup,
} from './cli-commands';
import { ADMIN_USAGE, REGISTRY_USAGE, SETTINGS_USAGE } from './cli-usage';
import { loadConfig } from './config';

// Each command loads only what it uses (the Docker client, YAML, the registry's archive reader)
// through import(): a command starts in a fraction of the time the whole service would take.

const USAGE = `Usage: npm run workspace -- <command>

  migrate                         apply pending database migrations
  setup                           migrate, and on an empty database issue the first global_admin key
  api-key create --name NAME --permission P [--permission P ...] [--read-only] [--expires ISO-8601]
  api-key list
  api-key revoke <api_key_id | api_key>
  config reference [file]         the configuration reference (stdout without file)
${ADMIN_USAGE}
${REGISTRY_USAGE}
${SETTINGS_USAGE}

Permissions: ${PERMISSIONS.join(', ')}`;

// A reader that stops early (`| head`) has what it wanted: the command still finishes its work,
// and what it would print after that is dropped instead of ending it with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

/** The commands, each with its own options; every help (`-h`, `--help`) prints USAGE. */
function program(): Command {
  const { root, group, leaf } = cliProgram(USAGE);
  root.command('migrate').action(leaf(() => migrate(loadConfig())));
  root.command('setup').action(leaf(setup));

  const apiKey = group(root, 'api-key');
  apiKey
    .command('create')
    .option('--name <name>')
    .option('--permission <permission>', '', (p: string, all: string[]) => [...all, p], [])
    .option('--read-only', '', false)
    .option('--expires <when>')
    .action(leaf(createKey));
  apiKey.command('list').action(leaf(listKeys));
  apiKey.command('revoke').argument('[target]').action(leaf(revokeKey, 1));
  group(root, 'config')
    .command('reference')
    .argument('[file]')
    .action(leaf(configReference, 0, 1));

  // These commands read their own words (admin-console/, registry/, settings/).
  root
    .command('admin')
    .argument('[words...]')
    .option('--password <password>')
    .action((words: string[], o: { password?: string }) => admin(words, o.password));
  root
    .command('registry')
    .argument('[words...]')
    .option('--force', '', false)
    .option('--all', '', false)
    .action((words: string[], o: { force: boolean; all: boolean }) => registry(words, o));
  root
    .command('settings')
    .argument('[words...]')
    .option('--prune', '', false)
    .option('--dry-run', '', false)
    .action((words: string[], o: { prune: boolean; dryRun: boolean }) => settings(words, o));
  return root;
}

/** Our errors carry a code and, for a list that is not a registry, every problem found. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, errors } = error as Error & {
    code?: string;
    errors?: { field: string; message: string }[];
  };
  const head = code && !code.startsWith('ERR_') ? `${code}: ${error.message}` : error.message;
  return [head, ...(errors ?? []).map((e) => `  ${e.field}: ${e.message}`)].join('\n');
}

runCli(program(), process.argv.slice(2), describeError);
