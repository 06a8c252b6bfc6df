// The test web workspace (platform-test/web:1, plain HTTP on 8080, which an administrator allows)
// installed straight into a bench database (no registry is needed), and the engine socket policy a private engine needs.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { engineRequest } = require('../../tools/docker-engine.cjs');

/**
 * @param {{ query: (sql: string, values?: unknown[]) => Promise<any[]> }} db
 * @param {{ image: string, cores: number, memory: number }} workspace
 * @returns {Promise<string>} the workspace's wire id
 */
export async function installTestWorkspace(db, { image, cores, memory }) {
  const [row] = await db.query(
    `INSERT INTO workspace.image (id, name, settings_name, friendly_name, cores, memory, run_config, allow_plain_http, architecture, categories, updated_at)
     VALUES (gen_random_uuid(), $1, $1, 'Bench workspace', $2, $3, '{"port": 8080, "scheme": "http"}', true, '{amd64}', '{}', now())
     RETURNING replace(id::text, '-', '') AS id`,
    [image, cores, memory],
  );
  return row.id;
}

/**
 * ENGINE_SOCKET_PATHS allowing these engines' sockets: a private engine's socket is none of the
 * defaults, and it is no DOCKER_HOST either, so without this its agent is refused.
 * @param {string[]} hosts unix:///… engine addresses
 */
export const socketPolicy = (hosts) => ({
  ENGINE_SOCKET_PATHS: hosts
    .filter((h) => h.startsWith('unix://'))
    .map((h) => new URL(h).pathname)
    .join(','),
});

/** The launch's readiness: the server answers HTTP (the engine's port proxy accepts earlier). */
export const serverAnswers = (/** @type {number} */ port) =>
  fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' }).then(
    () => true,
    () => false,
  );

/**
 * The engine's own create + start of the container a session of the test workspace gets (its
 * image, limits, init and a published port), without the platform: the launch benches' baseline.
 * Resolves once the engine started it, with its published port, or with why it did not start.
 * @param {string} host @param {{ image: string, cores: number, memory: number }} workspace
 * @returns {Promise<{ id: string, port: number } | { id: string, failed: string }>}
 */
export async function startBareContainer(host, { image, cores, memory }) {
  const created = await engineRequest(host, 'POST', '/containers/create', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      Image: image,
      ExposedPorts: { '8080/tcp': {} },
      HostConfig: {
        NanoCpus: cores * 1e9,
        Memory: memory,
        Init: true,
        PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] },
      },
    }),
  });
  const { Id: id } = JSON.parse(created.body);
  const start = await engineRequest(host, 'POST', `/containers/${id}/start`);
  if (start.status !== 204) return { id, failed: `start: ${start.status} ${start.body.trim()}` };
  const inspected = JSON.parse((await engineRequest(host, 'GET', `/containers/${id}/json`)).body);
  return { id, port: Number(inspected.NetworkSettings.Ports['8080/tcp'][0].HostPort) };
}
