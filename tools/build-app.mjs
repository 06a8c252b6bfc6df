// Bundles one app's entry points with esbuild: our own code (the app, the @platform libs and the
// generated Prisma client) goes into dist/; npm packages stay external and are installed with
// production dependencies next to it, which keeps native modules (bcrypt) and Prisma's runtime
// files working as published. The exception: a package npm installed privately for one lib
// (libs/x/node_modules, e.g. ajv 8 while the root holds eslint's ajv 6) is bundled, because
// it would not resolve from the app's dist/.
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const PRIVATE_TO_A_LIB = /[/\\]libs[/\\][^/\\]+[/\\]node_modules[/\\]/;

/**
 * @param {string} specifier
 * @param {string} resolveDir
 */
function isPrivateToLib(specifier, resolveDir) {
  try {
    return PRIVATE_TO_A_LIB.test(require.resolve(specifier, { paths: [resolveDir] }));
  } catch {
    return false;
  }
}

const app = process.argv[2];
if (!app) throw new Error('usage: node tools/build-app.mjs <app-name>');
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps', app);

/** @type {import('esbuild').Plugin} */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@platform/') || isPrivateToLib(args.path, args.resolveDir)
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

const result = await build({
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
  write: false,
});

// Each file is replaced at once (written beside, then renamed over the old one): a test that
// runs dist/cli.js while another rebuilds the same app reads the old bundle or the new, never
// half of one.
for (const file of result.outputFiles) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  const next = `${file.path}.${process.pid}.tmp`;
  writeFileSync(next, file.contents);
  renameSync(next, file.path);
}

// A web page's static files (src/web/assets) go beside the bundle, where its code looks for them,
// with the shared ones of @platform/http (base.css).
const assets = path.join(root, 'src', 'web', 'assets');
if (existsSync(assets)) {
  const shared = path.join(root, '..', '..', 'libs', 'http', 'src', 'assets');
  cpSync(shared, path.join(root, 'dist', 'assets'), { recursive: true });
  cpSync(assets, path.join(root, 'dist', 'assets'), { recursive: true });
}
// The console's, the session page's, the session files' and the session sound's too: their code
// looks in the same place.
for (const feature of ['admin-console', 'session-page', 'session-files', 'session-audio']) {
  const featureAssets = path.join(root, 'src', feature, 'assets');
  if (existsSync(featureAssets)) {
    cpSync(featureAssets, path.join(root, 'dist', 'assets'), { recursive: true });
  }
}
