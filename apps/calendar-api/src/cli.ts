import { loadConfig } from './config';
import { migrateDatabase } from './migrations';

const USAGE = `Usage: npm run calendar -- <command>

  migrate   apply pending database migrations
  setup     the same as migrate (first-start steps)`;

const print = (line = '') => process.stdout.write(`${line}\n`);

async function main([command]: string[]) {
  if (command !== 'migrate' && command !== 'setup') return print(USAGE);
  const { applied } = await migrateDatabase(loadConfig());
  print(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
