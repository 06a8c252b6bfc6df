import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';

/**
 * Where the shared page files (base.css) are: beside this module in the sources, and in dist/
 * beside a service's bundle, where the build copies them with the service's own.
 */
const SHARED_DIR = path.join(__dirname, 'assets');

/** The path parameters of `/:file`. */
export const AssetParamsSchema = Type.Object({ file: Type.String({ maxLength: 64 }) });

export interface PageAssetsOptions {
  /** Each file's name under the prefix and the path it is read from; base.css comes too. */
  files: Record<string, string>;
  /** The answer for a name that is none of `files`. */
  notFound: (reply: FastifyReply, name: string) => unknown;
}

/**
 * A page's static files under the plugin's prefix (`/assets`), sent by @fastify/static: a
 * content type from the file's extension, never sniffed, cached for five minutes, with an ETag
 * and Last-Modified so that a browser's revalidation costs a 304. Only the named files are served, whatever else their folders hold.
 * An encapsulated plugin: `reply.sendFile` stays inside it, so each page registers its own.
 */
export const pageAssets: FastifyPluginAsync<PageAssetsOptions> = async (app, options) => {
  const files = new Map(
    Object.entries({ 'base.css': path.join(SHARED_DIR, 'base.css'), ...options.files }),
  );
  await app.register(fastifyStatic, {
    root: SHARED_DIR,
    serve: false,
    maxAge: 300_000,
    setHeaders(reply: FastifyReply, file: string) {
      reply.header('x-content-type-options', 'nosniff');
      // @fastify/send's mime table still says application/javascript; RFC 9239 made it text/.
      if (file.endsWith('.js')) reply.type('text/javascript; charset=utf-8');
    },
  });
  app.get<{ Params: Static<typeof AssetParamsSchema> }>(
    '/:file',
    { schema: { hide: true, params: AssetParamsSchema } },
    (request, reply) => {
      const file = files.get(request.params.file);
      if (!file) return options.notFound(reply, request.params.file);
      return reply.sendFile(path.basename(file), path.dirname(file));
    },
  );
};
