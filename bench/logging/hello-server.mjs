// One variant of request logging on a hello route, for bench/request-logging.mjs. Run as
// `node hello-server.mjs <http-lib.cjs> <variant> <port>`; logs go to stdout like in production.
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import pino from 'pino';

const [libFile, variant, port] = process.argv.slice(2);
const { fastifyOptions } = createRequire(import.meta.url)(libFile);
const { LogController } = Fastify;

const options = fastifyOptions({
  logLevel: variant === 'off' ? 'silent' : 'info',
  bodyLimitBytes: 1 << 20,
});
const VARIANTS = {
  off: {},
  // Before: Fastify's own two lines per request, written synchronously.
  'fastify-sync': { logController: new LogController(), sync: true },
  'fastify-async': { logController: new LogController(), sync: false },
  'one-line-sync': { sync: true },
  // Asynchronous, but a write per line (before the 4 KiB buffer).
  'one-line-async-unbuffered': { sync: false },
  // What fastifyOptions does now: asynchronous, buffered up to 4 KiB or a second.
  'one-line-async': {},
  // For the figure only: no per-request child logger (request.log would lose the request id).
  'one-line-async-no-child': { childLoggerFactory: (logger) => logger },
};
const { sync, ...override } = VARIANTS[variant];
if (sync !== undefined)
  options.logger = { ...options.logger, stream: pino.destination({ dest: 1, sync }) };
const app = Fastify({ ...options, ...override });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
