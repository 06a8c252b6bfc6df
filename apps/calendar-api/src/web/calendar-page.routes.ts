import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { setPageHeaders } from '@platform/http';
import type { Config } from '../config';
import { AssetNotFoundError } from '../errors';
import { calendarPage, calendarPagePolicy, newNonce } from './calendar-page';

interface Asset {
  type: string;
  body: Buffer;
}

/**
 * The page's files, read once at start-up: its own (beside this module in the sources, beside
 * the bundle in dist/, where the build copies them) and FullCalendar's browser bundle from
 * node_modules, so nothing is fetched from elsewhere.
 */
function loadAssets(dir = path.join(__dirname, 'assets')): Map<string, Asset> {
  const fullCalendar = path.dirname(require.resolve('fullcalendar/package.json'));
  const js = 'text/javascript; charset=utf-8';
  return new Map([
    ['calendar.js', { type: js, body: readFileSync(path.join(dir, 'calendar.js')) }],
    [
      'calendar.css',
      { type: 'text/css; charset=utf-8', body: readFileSync(path.join(dir, 'calendar.css')) },
    ],
    [
      'fullcalendar.js',
      { type: js, body: readFileSync(path.join(fullCalendar, 'index.global.min.js')) },
    ],
  ]);
}

/** The calendar page at `/` and its files under `/assets/`. */
export const calendarPageRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (
  app,
  { config },
) => {
  const assets = loadAssets();

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    const nonce = newNonce();
    setPageHeaders(reply, calendarPagePolicy(nonce));
    return reply.type('text/html; charset=utf-8').send(calendarPage(config, nonce));
  });

  app.get(
    '/assets/:file',
    { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const asset = assets.get(request.params.file);
      if (!asset) throw new AssetNotFoundError(request.params.file);
      return reply
        .type(asset.type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=300')
        .send(asset.body);
    },
  );
};
