import { parseArgs } from 'node:util';
import { publicBaseUrl } from '@platform/schemas';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { migrateDatabase } from './migrations';
import { createTokensService, type IssuedToken, type TokensService } from './tokens/tokens.service';

const USAGE = `Usage: npm run calendar -- <command>

  migrate                   apply pending database migrations
  setup                     migrate, and on a database without tokens issue the first one
  token create --name NAME  issue a bearer token for writes (printed once)
  token list                every token: id, state, name
  token revoke <id>         revoke a token; it stops working on the next request`;

const print = (line = '') => process.stdout.write(`${line}\n`);
// A reader that stops early (`| head`) has what it wanted: the command still finishes its work,
// and what it would print after that is dropped instead of ending it with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

function printIssued({ apiToken, token }: IssuedToken, baseUrl: string) {
  print(`Token ${apiToken.id} "${apiToken.name}" issued. It is shown only now; store it safely.`);
  print(`  ${token}`);
  print();
  print('Try it:');
  print(`  curl -s -X POST ${baseUrl}/api/calendar/add_event \\`);
  print(`    -H 'authorization: Bearer ${token}' -H 'content-type: application/json' \\`);
  print(`    -d '{"date": "2025-03-03", "title": "Unit 5 intro"}'`);
}

async function runTokenCommand(
  tokens: TokensService,
  positionals: string[],
  name: string | undefined,
  baseUrl: string,
) {
  const [, action, target] = positionals;
  if (action === 'create') {
    if (!name?.trim()) throw new Error('Give the token a --name');
    printIssued(await tokens.create(name.trim()), baseUrl);
  } else if (action === 'list') {
    for (const t of await tokens.list()) {
      print(
        `${String(t.id).padStart(4)}  ${t.revokedAt ? 'revoked' : 'active '}  ${t.createdAt.toISOString()}  ${t.name}`,
      );
    }
  } else if (action === 'revoke' && target) {
    if (!/^[1-9]\d{0,9}$/.test(target)) throw new Error(`Not a token id: ${target}`);
    const revoked = await tokens.revoke(Number(target));
    print(`Revoked token ${revoked.id} "${revoked.name}"`);
  } else {
    throw new Error(`Unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  }
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command] = positionals;
  if (values.help || command === undefined) return print(USAGE);
  if (command !== 'migrate' && command !== 'setup' && command !== 'token') {
    throw new Error(`Unknown command "${command}"\n\n${USAGE}`);
  }

  const config = loadConfig();
  if (command === 'migrate' || command === 'setup') {
    const { applied } = await migrateDatabase(config);
    print(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
    if (command === 'migrate') return;
  }
  const db = openDatabase(config);
  try {
    const tokens = createTokensService({ db });
    if (command === 'setup') {
      const issued = await tokens.createFirst();
      if (issued) printIssued(issued, publicBaseUrl(config));
    } else {
      await runTokenCommand(tokens, positionals, values.name, publicBaseUrl(config));
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
