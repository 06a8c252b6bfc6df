import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageAssets, setPageHeaders } from '@platform/http';
import type { Config } from '../config';
import { AssetNotFoundError } from '../errors';
import { calendarPage, calendarPagePolicy, newNonce } from './calendar-page';

/**
 * The page's files: its own (beside this module in the sources, beside the bundle in dist/, where
 * the build copies them) and FullCalendar's browser bundle from node_modules, so nothing is
 * fetched from elsewhere.
 */
function assetFiles(dir = path.join(__dirname, 'assets')) {
  const fullCalendar = path.dirname(require.resolve('fullcalendar/package.json'));
  return {
    'calendar.js': path.join(dir, 'calendar.js'),
    'calendar.css': path.join(dir, 'calendar.css'),
    'fullcalendar.js': path.join(fullCalendar, 'index.global.min.js'),
  };
}

/** The calendar page at `/` and its files under `/assets/`. */
export const calendarPageRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (
  app,
  { config },
) => {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    const nonce = newNonce();
    setPageHeaders(reply, calendarPagePolicy(nonce));
    return reply.type('text/html; charset=utf-8').send(calendarPage(config, nonce));
  });

  await app.register(pageAssets, {
    prefix: '/assets',
    files: assetFiles(),
    notFound: (_reply, name) => {
      throw new AssetNotFoundError(name);
    },
  });
};
