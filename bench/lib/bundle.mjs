// Bundles a TypeScript entry of the bench with the apps' sources (and the @platform libs),
// leaving npm packages external, like tools/build-app.mjs does for the apps.
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { RESULTS_DIR } from './paths.mjs';

const require = createRequire(import.meta.url);
// A package npm installed inside a lib (libs/x/node_modules) would not resolve from the output.
const PRIVATE_TO_A_LIB = /[/\\]libs[/\\][^/\\]+[/\\]node_modules[/\\]/;
const privateToLib = (/** @type {string} */ specifier, /** @type {string} */ resolveDir) => {
  try {
    return PRIVATE_TO_A_LIB.test(require.resolve(specifier, { paths: [resolveDir] }));
  } catch {
    return false;
  }
};

/**
 * Bundles `entry` into bench/results/.build/<name>.cjs and loads it.
 * @template T the entry's exports
 * @param {string} entry
 * @param {string} name
 * @returns {Promise<T>}
 */
export async function bundle(entry, name) {
  const outfile = path.join(RESULTS_DIR, '.build', `${name}.cjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@platform/') || privateToLib(args.path, args.resolveDir)
              ? undefined
              : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return require(outfile);
}
