import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';

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
 * Where the shared page files (base.css) are: beside this module in the sources, and in dist/
 * beside a service's bundle, where the build copies them with the service's own.
 */
const SHARED_DIR = path.join(__dirname, 'assets');

/**
 * A page's static files under `/assets/`, read once at start-up: the shared base.css, then each
 * of `files` (a name under `/assets/` and the path it is read from).
 */
export function loadPageAssets(files: Record<string, string>): Map<string, Asset> {
  const all = { 'base.css': path.join(SHARED_DIR, 'base.css'), ...files };
  return new Map(
    Object.entries(all).map(([name, file]) => [
      name,
      { type: TYPES[path.extname(name)], body: readFileSync(file) },
    ]),
  );
}

/** The path parameters of `/assets/:file`. */
export const AssetParamsSchema = Type.Object({ file: Type.String({ maxLength: 64 }) });

/** Sends a page file: its type, never sniffed, cached for a few minutes. */
export function sendAsset(reply: FastifyReply, asset: Asset) {
  return reply
    .type(asset.type)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'public, max-age=300')
    .send(asset.body);
}
