import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { publicBaseUrl } from '@platform/schemas';
import { cliProgram, runCli, type Command } from '@platform/cli';
import { configReferenceText, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db';
import { createFeedAddressesService, FEED_USAGE, type FeedOptions, runFeedCommand } from './feed';
import { migrateDatabase } from './migrations';
import {
  createTokensService,
  printIssued,
  runTokenCommand,
  TOKEN_USAGE,
  type TokenOptions,
} from './tokens';

const USAGE = `Usage: npm run calendar -- <command>

  migrate                   apply pending database migrations
  setup                     migrate, and on a database without tokens issue the first one
  config reference [file]   the configuration reference (stdout without file)
${TOKEN_USAGE}
${FEED_USAGE}`;

const print = (line = '') => process.stdout.write(`${line}\n`);
// A reader that stops early (`| head`) has what it wanted: the command still finishes its work,
// and what it would print after that is dropped instead of ending it with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

async function migrate(config: Config) {
  const { applied } = await migrateDatabase(config);
  print(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
}

/** Runs `work` on the database, and says the command is unknown when `work` knows none. */
async function withDatabase(
  work: (db: Database, baseUrl: string) => Promise<boolean | void>,
  words: string[],
  config = loadConfig(),
) {
  const db = openDatabase(config);
  try {
    if ((await work(db, publicBaseUrl(config))) === false)
      throw new Error(`Unknown command "${words.join(' ')}"\n\n${USAGE}`);
  } finally {
    await db.close();
  }
}

async function setup() {
  const config = loadConfig();
  await migrate(config);
  await withDatabase(
    async (db, baseUrl) => {
      const issued = await createTokensService({ db }).createFirst();
      if (issued) printIssued(issued, baseUrl);
    },
    ['setup'],
    config,
  );
}

async function configReference(file: string | undefined) {
  if (!file) return print(configReferenceText().replace(/\n$/, ''));
  // npm runs scripts from the package's folder; INIT_CWD is where the command was typed.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  await writeFile(target, configReferenceText());
  process.stderr.write(`Wrote the configuration reference to ${target}\n`);
}

/** The commands; `token` and `feed` read their own words (tokens/, feed/). */
function program(): Command {
  const { root, group, leaf } = cliProgram(USAGE);
  // Words after migrate and setup were never read: they still are not.
  root.command('migrate').action(leaf(() => migrate(loadConfig()), 0, Infinity));
  root.command('setup').action(leaf(setup, 0, Infinity));
  group(root, 'config')
    .command('reference')
    .argument('[file]')
    .action(leaf(configReference, 0, 1));
  root
    .command('token')
    .argument('[words...]')
    .option('--name <name>')
    .option('--scope <scope>')
    .option('--expires <when>')
    .action((words: string[], options: TokenOptions) =>
      withDatabase(
        (db, baseUrl) => runTokenCommand(createTokensService({ db }), words, options, baseUrl),
        ['token', ...words],
      ),
    );
  root
    .command('feed')
    .argument('[words...]')
    .option('--name <name>')
    .option('--type <type>')
    .option('--period <period>')
    .action((words: string[], options: FeedOptions) =>
      withDatabase(
        (db, baseUrl) =>
          runFeedCommand(createFeedAddressesService({ db }), words, options, baseUrl),
        ['feed', ...words],
      ),
    );
  return root;
}

runCli(program(), process.argv.slice(2), (error) =>
  error instanceof Error ? error.message : String(error),
);
