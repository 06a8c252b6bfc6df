import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * The page's few static files, read once at start-up. They sit beside this module in the
 * sources and beside the bundle in dist/ (the build copies them), so `__dirname` finds both.
 */
export function loadAssets(dir = path.join(__dirname, 'assets')): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of ['page.js', 'page.css', 'workspace.svg']) {
    assets.set(name, {
      type: TYPES[path.extname(name)],
      body: readFileSync(path.join(dir, name)),
    });
  }
  return assets;
}
