import path from 'node:path';
import { loadPageAssets } from '@platform/http';

/**
 * The pages' own static files: beside this module in the sources and beside the bundle in dist/
 * (the build copies them), so `__dirname` finds both.
 */
export function loadAssets(dir = path.join(__dirname, 'assets')) {
  return loadPageAssets({
    'page.js': path.join(dir, 'page.js'),
    'page.css': path.join(dir, 'page.css'),
    'workspace.svg': path.join(dir, 'workspace.svg'),
  });
}
