// @ts-check
// workspace-api as the desktops and files benches run it: the built server on its own database,
// a Docker engine registered as an agent of the machine's own size (no overrides), a zone whose
// sessions are reached on the server itself, and one workspace (installed from the service's own
// registry, or a test image's written to the database) allowed to a user who signs in with a
// password.
import { createRequire } from 'node:module';
import { createBenchDatabase } from './database.mjs';
import { ROOT } from './paths.mjs';
import { freePort, issueAdminKey, runCli, sleep, startService } from './processes.mjs';
import { installTestWorkspace } from './test-workspace.mjs';

const require = createRequire(import.meta.url);
const { socketsDirOf } = require('../../tools/services.cjs');

// The All Users group every user is in (a fixed id in the first migration).
const ALL_USERS = '68d557ac4cac42cca9f31c7c853de0f3';
export const USER = { username: 'bench', password: 'Bench-pass1' };

/**
 * @param {{ host: string }} engine
 * @param {({ name: string, friendlyName: string } | { name: string, testImage: { image: string, cores: number, memory: number } }) & { env?: Record<string, string> }} options
 *   `name` names the server's log; the workspace is `friendlyName` from the service's own
 *   registry, or `testImage`'s (tools/docker-test-images.cjs) written to the database; `env`
 *   adds to the server's configuration
 */
export async function startPlatform(engine, options) {
  const db = await createBenchDatabase();
  /** @type {Awaited<ReturnType<typeof startService>> | undefined} */
  let server;
  try {
    // Sessions are served on their own listener, never the console's origin.
    const sessionPort = await freePort();
    const sessionsOrigin = `http://127.0.0.1:${sessionPort}`;
    const env = {
      DATABASE_URL: db.url,
      SESSION_PORT: String(sessionPort),
      SESSION_URL_SCHEME: 'http',
      // The own registry is this server, on loopback; the engine's socket is the operator's.
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      DOCKER_HOST: engine.host,
      // As npm start: sessions on this machine's engine are reached through the socket hop;
      // BENCH_HOP=tls takes the TLS hop instead, as Kasm's images and tcp:// agents always do.
      SESSION_SOCKETS_DIR: process.env.BENCH_HOP === 'tls' ? '' : socketsDirOf(ROOT),
      ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
      ...options.env,
    };
    runCli('workspace-api', ['migrate'], env);
    const credentials = issueAdminKey(env);
    const port = await freePort();
    server = await startService({
      name: options.name,
      app: 'workspace-api',
      env,
      port,
      // A loaded machine (other work on its 2 cores) can take a while to start the service.
      readyTimeoutMs: 180_000,
    });
    const origin = server.url;

    /** @param {string} operation @param {Record<string, unknown>} [body] @returns {Promise<any>} */
    const attempt = async (operation, body = {}) => {
      const res = await fetch(`${origin}/api/public/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...credentials, ...body }),
      });
      return { ok: res.ok, status: res.status, json: await res.json() };
    };
    /** @param {string} operation @param {Record<string, unknown>} [body] @returns {Promise<any>} */
    const call = async (operation, body = {}) => {
      const res = await attempt(operation, body);
      if (!res.ok) throw new Error(`${operation}: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json;
    };

    /** The workspace `friendlyName` from the service's own registry, installed; its wire id. @param {string} friendlyName */
    const installFromOwnRegistry = async (friendlyName) => {
      const { registry } = await call('add_registry', { registry_url: `${origin}/registry/` });
      const { image } = await call('install_workspace', {
        registry_id: registry.registry_id,
        name: friendlyName,
      });
      return String(image.image_id);
    };

    const { zone } = await call('create_zone', {
      target_zone: { name: 'bench', proxy_hostname: '127.0.0.1', proxy_port: sessionPort },
    });
    const { agent } = await call('create_agent', {
      target_agent: { hostname: 'bench', zone_id: zone.zone_id, docker_url: engine.host },
    });
    const { user } = await call('create_user', {
      target_user: { username: USER.username, password: USER.password },
    });
    await call('update_group', {
      target_group: { group_id: ALL_USERS, max_kasms_per_user: 1000 },
    });
    const imageId =
      'testImage' in options
        ? await installTestWorkspace(db, options.testImage)
        : await installFromOwnRegistry(options.friendlyName);
    await call('add_images_group', {
      target_group: { group_id: ALL_USERS },
      target_image: { image_id: imageId },
    });

    /** Polls get_kasm_status until the session runs. @param {string} kasmId */
    const untilRunning = async (kasmId) => {
      for (;;) {
        const status = await call('get_kasm_status', { kasm_id: kasmId });
        if (status.operational_status === 'running') return status;
        if (['error', 'destroyed'].includes(status.operational_status))
          throw new Error(`session ${kasmId}: ${status.operational_message}`);
        await sleep(10);
      }
    };

    return {
      origin,
      sessionsOrigin,
      pid: Number(server.pid),
      agent,
      userId: String(user.user_id),
      imageId,
      /** The admin key's credentials, for a call whose answer is not JSON (an image). */
      credentials,
      attempt,
      call,
      untilRunning,
      /** request_kasm through the API, until running; its kasm_url's grant as a cookie header. */
      async launch() {
        const { kasm_id: kasmId } = await call('request_kasm', {
          user_id: user.user_id,
          image_id: imageId,
        });
        const status = await untilRunning(kasmId);
        const visit = await fetch(status.kasm_url, { redirect: 'manual' });
        const cookie = String(visit.headers.get('set-cookie')).split(';')[0];
        return { kasmId: String(kasmId), cookie };
      },
      /** @param {string} kasmId */
      destroy: (kasmId) => call('destroy_kasm', { kasm_id: kasmId, user_id: user.user_id }),
      async stop() {
        await server?.stop();
        await db.drop();
      },
    };
  } catch (error) {
    await server?.stop();
    await db.drop();
    throw error;
  }
}

/** @typedef {Awaited<ReturnType<typeof startPlatform>>} Platform */
