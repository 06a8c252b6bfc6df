import { compileWasmCompactly } from '@platform/db';
import { listen } from '@platform/http';
import { buildApp } from './app';
import { loadConfig } from './config';

async function main() {
  compileWasmCompactly();
  const config = loadConfig();
  const app = await buildApp(config);
  await listen(app, config.PORT);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `workspace-api failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
