// The engine alone: a command run in a container through the Engine API's exec, its stdin fed
// or its stdout drained straight by this process, with nothing of the platform between. What
// the engine's own path costs, beside which the service's transfers are measured (bench:files).
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { engineRequest } = require('../../tools/docker-engine.cjs');

/**
 * Starts `cmd` in `containerId` with its streams attached: the hijacked connection.
 * @param {string} host a `unix://` DOCKER_HOST
 * @param {string} containerId
 * @param {string} cmd
 * @param {boolean} stdin
 * @returns {Promise<import('node:net').Socket>}
 */
async function execConnection(host, containerId, cmd, stdin) {
  const json = { 'content-type': 'application/json' };
  const created = await engineRequest(host, 'POST', `/containers/${containerId}/exec`, {
    headers: json,
    body: JSON.stringify({
      Cmd: ['/bin/sh', '-c', cmd],
      AttachStdin: stdin,
      AttachStdout: true,
      AttachStderr: true,
    }),
  });
  const { Id } = JSON.parse(created.body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      socketPath: host.slice('unix://'.length),
      method: 'POST',
      path: `/exec/${Id}/start`,
      headers: { ...json, connection: 'Upgrade', upgrade: 'tcp' },
    });
    req.on('upgrade', (_res, socket, head) => {
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.on('response', (res) => reject(new Error(`exec start: ${res.statusCode}`)));
    req.on('error', reject);
    req.end(JSON.stringify({ Detach: false, Tty: false }));
  });
}

/**
 * Feeds `file` to `cmd`'s stdin; answers the time until the command ended.
 * @param {string} host
 * @param {string} containerId
 * @param {string} cmd
 * @param {string} file
 */
export async function engineUpload(host, containerId, cmd, file) {
  const began = performance.now();
  const socket = await execConnection(host, containerId, cmd, true);
  socket.resume();
  const closed = new Promise((resolve) => socket.once('close', resolve));
  fs.createReadStream(file).pipe(socket);
  await closed;
  return performance.now() - began;
}

/**
 * Drains what `cmd` writes (its frames unread); answers the bytes and the time until it ended.
 * @param {string} host
 * @param {string} containerId
 * @param {string} cmd
 */
export async function engineDownload(host, containerId, cmd) {
  const began = performance.now();
  const socket = await execConnection(host, containerId, cmd, false);
  let bytes = 0;
  socket.on('data', (chunk) => (bytes += chunk.length));
  await new Promise((resolve) => socket.once('close', resolve));
  return { bytes, ms: performance.now() - began };
}
