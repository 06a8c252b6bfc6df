import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { publicBaseUrl } from '@platform/schemas';
import { configReferenceText, loadConfig } from './config';
import { openDatabase } from './db';
import { createFeedAddressesService, FEED_USAGE, runFeedCommand } from './feed';
import { migrateDatabase } from './migrations';
import { createTokensService, printIssued, runTokenCommand, TOKEN_USAGE } from './tokens';

const USAGE = `Usage: npm run calendar -- <command>

  migrate                   apply pending database migrations
  setup                     migrate, and on a database without tokens issue the first one
  config reference [file]   the configuration reference (stdout without file)
${TOKEN_USAGE}
${FEED_USAGE}`;

const COMMANDS = new Set(['migrate', 'setup', 'token', 'feed', 'config']);

const print = (line = '') => process.stdout.write(`${line}\n`);
// A reader that stops early (`| head`) has what it wanted: the command still finishes its work,
// and what it would print after that is dropped instead of ending it with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      scope: { type: 'string' },
      expires: { type: 'string' },
      type: { type: 'string' },
      period: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) return print(USAGE);
  if (!COMMANDS.has(command)) throw new Error(`Unknown command "${command}"\n\n${USAGE}`);
  if (command === 'config') {
    if (rest[0] !== 'reference')
      throw new Error(`Unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
    if (!rest[1]) return print(configReferenceText().replace(/\n$/, ''));
    // npm runs scripts from the package's folder; INIT_CWD is where the command was typed.
    const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), rest[1]);
    await writeFile(target, configReferenceText());
    return void process.stderr.write(`Wrote the configuration reference to ${target}\n`);
  }

  const config = loadConfig();
  if (command === 'migrate' || command === 'setup') {
    const { applied } = await migrateDatabase(config);
    print(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
    if (command === 'migrate') return;
  }
  const db = openDatabase(config);
  const baseUrl = publicBaseUrl(config);
  try {
    const tokens = createTokensService({ db });
    let known = true;
    if (command === 'setup') {
      const issued = await tokens.createFirst();
      if (issued) printIssued(issued, baseUrl);
    } else if (command === 'token') {
      known = await runTokenCommand(tokens, rest, values, baseUrl);
    } else {
      known = await runFeedCommand(createFeedAddressesService({ db }), rest, values, baseUrl);
    }
    if (!known) throw new Error(`Unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
