// Bundles one app's entry points with esbuild: our own code (the app, the @platform libs and the
// generated Prisma client) goes into dist/; every npm package stays external and is installed
// with production dependencies next to it, which keeps native modules (bcrypt) and Prisma's
// runtime files working as published.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const app = process.argv[2];
if (!app) throw new Error('usage: node tools/build-app.mjs <app-name>');
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps', app);

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@platform/') ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  absWorkingDir: root,
  entryPoints: ['src/server.ts', 'src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages],
});
