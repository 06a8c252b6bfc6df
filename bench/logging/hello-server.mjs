// One variant of request logging on a hello route, for bench/request-logging.mjs. Run as
// `node hello-server.mjs <http-lib.cjs> <variant> <port>`; logs go to stdout like in production.
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import pino from 'pino';

const [libFile, variant, port] = process.argv.slice(2);
/** @type {typeof import('@platform/http')} */
const { fastifyOptions } = createRequire(import.meta.url)(libFile);
const { LogController } = Fastify;

const options = fastifyOptions({
  logLevel: variant === 'off' ? 'silent' : 'info',
  bodyLimitBytes: 1 << 20,
});
/** @type {Record<string, import('fastify').FastifyServerOptions & { destination?: { sync: boolean, minLength?: number } }>} */
const VARIANTS = {
  off: {},
  // Before: Fastify's own two lines per request, written synchronously.
  'fastify-sync': { logController: new LogController(), destination: { sync: true } },
  'fastify-async': { logController: new LogController(), destination: { sync: false } },
  'one-line-sync': { destination: { sync: true } },
  // Asynchronous, but a write per line (before the buffer).
  'one-line-async-unbuffered': { destination: { sync: false } },
  // Buffered up to 4 KiB in sonic-boom's text mode (before the buffer mode).
  'one-line-async-text': { destination: { sync: false, minLength: 4096 } },
  // What fastifyOptions does now: asynchronous, lines kept as buffers up to 8 KiB or a second.
  'one-line-async': {},
  // For the figure only: no per-request child logger (request.log would lose the request id).
  'one-line-async-no-child': { childLoggerFactory: (logger) => logger },
};
const { destination, ...override } = VARIANTS[variant];
if (destination !== undefined)
  options.logger = {
    // fastifyOptions gives the logger's options, never a boolean.
    .../** @type {object} */ (options.logger),
    stream: pino.destination({ dest: 1, ...destination }),
  };
const app = Fastify({ ...options, ...override });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
