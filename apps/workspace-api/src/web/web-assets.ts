import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The pages' own static files: beside this module in the sources and beside the bundle in dist/
 * (the build copies them), so `__dirname` finds both.
 */
export function assetFiles(dir = path.join(__dirname, 'assets')) {
  return {
    'page.js': path.join(dir, 'page.js'),
    'page.css': path.join(dir, 'page.css'),
    'workspace.svg': path.join(dir, 'workspace.svg'),
  };
}

/** The built-in workspace icon, for an image that has none of its own. */
export const readBuiltInIcon = () => readFileSync(assetFiles()['workspace.svg']);
