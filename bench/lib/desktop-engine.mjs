// @ts-check
// The Engine API calls of the desktops bench: the session's container as the engine sees it,
// the same container started by the engine alone (the baseline), exec, memory and processes.
import { createRequire } from 'node:module';
import tls from 'node:tls';
import { sleep } from './processes.mjs';

const require = createRequire(import.meta.url);
const { engineRequest } = require('../../tools/docker-engine.cjs');

export const SESSION_LABEL = 'io.workspace-platform.session-id';
export const DESKTOP_PORT = '6901/tcp';

/**
 * @param {string} host @param {string} method @param {string} urlPath @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function engineJson(host, method, urlPath, body) {
  const response = await engineRequest(host, method, urlPath, {
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.status || response.status >= 400)
    throw new Error(`${method} ${urlPath}: ${response.status} ${response.body}`);
  return response.body ? JSON.parse(response.body) : null;
}

/** The inspection of a session's container (found by the label the platform puts on it). */
export async function sessionContainer(/** @type {string} */ host, /** @type {string} */ kasmId) {
  const filters = encodeURIComponent(JSON.stringify({ label: [`${SESSION_LABEL}=${kasmId}`] }));
  const [found] = await engineJson(host, 'GET', `/containers/json?all=true&filters=${filters}`);
  if (!found) throw new Error(`no container for session ${kasmId}`);
  return engineJson(host, 'GET', `/containers/${found.Id}/json`);
}

/** Where a session's socket hop folder is mounted (apps/workspace-api, SOCKET_HOP_MOUNT). */
const SOCKET_HOP = '/run/workspace-platform';

/** @param {any} inspected */
export const publishedPort = (inspected) =>
  Number(inspected.NetworkSettings.Ports[DESKTOP_PORT][0].HostPort);

/** The desktop's password (VNC_PW) in a container's environment. @param {string[]} env */
export const desktopPassword = (env) =>
  String(env.find((e) => e.startsWith('VNC_PW='))?.slice('VNC_PW='.length));

/**
 * What the engine alone is asked to create for the same container as a session's: its image,
 * environment (VNC_PW included), hostname, limits, init and published port, without the
 * platform's label (so that no sweep of the platform's takes it for a session's) and without the
 * socket hop's folder (the platform's, removed with the session; the baseline is reached on its
 * published port, as a client outside the platform reaches a container).
 * @param {any} inspected a session container's inspection
 */
export function sameContainer(inspected) {
  const { HostConfig: hc, Config: config } = inspected;
  return {
    Image: config.Image,
    Hostname: config.Hostname,
    Env: config.Env,
    ExposedPorts: config.ExposedPorts,
    HostConfig: {
      NanoCpus: hc.NanoCpus,
      Memory: hc.Memory,
      ShmSize: hc.ShmSize,
      Mounts: hc.Mounts?.filter((/** @type {{ Target: string }} */ m) => m.Target !== SOCKET_HOP),
      PortBindings: hc.PortBindings,
      Init: hc.Init,
    },
  };
}

/**
 * The engine's own create + start; returns the container and its published port.
 * @param {string} host @param {object} spec from sameContainer
 */
export async function createAndStart(host, spec) {
  const { Id } = await engineJson(host, 'POST', '/containers/create', spec);
  await engineJson(host, 'POST', `/containers/${Id}/start`);
  const inspected = await engineJson(host, 'GET', `/containers/${Id}/json`);
  return { id: String(Id), port: publishedPort(inspected) };
}

export const removeContainer = (/** @type {string} */ host, /** @type {string} */ id) =>
  engineRequest(host, 'DELETE', `/containers/${id}?force=true&v=true`);

/**
 * Whether the desktop's server answers: a TLS handshake completes (the launcher's own test;
 * the engine's port proxy accepts connections before the server listens).
 * @param {number} port
 */
function tlsAnswers(port) {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () =>
      done(true),
    );
    const timer = setTimeout(() => done(false), 2000);
    function done(/** @type {boolean} */ answered) {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    }
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/** Polls every 10 ms, as the launcher does, until the server answers. @param {number} port */
export async function untilServing(port) {
  while (!(await tlsAnswers(port))) await sleep(10);
}

/**
 * Runs `cmd` in the container as the desktop's user (DISPLAY :1) and answers its output (the
 * engine's multiplexed stream, read as text: enough for digits and markers).
 * @param {string} host @param {string} id @param {string} cmd
 */
export async function execOutput(host, id, cmd) {
  const exec = await engineJson(host, 'POST', `/containers/${id}/exec`, {
    Cmd: ['/bin/sh', '-c', cmd],
    User: '1000',
    Env: ['DISPLAY=:1'],
    AttachStdout: true,
    AttachStderr: true,
  });
  const started = await engineRequest(host, 'POST', `/exec/${exec.Id}/start`, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Detach: false }),
  });
  return String(started.body);
}

/**
 * Runs `cmd` in the container as its user with the desktop's DISPLAY, detached (the engine does
 * not wait for it).
 * @param {string} host @param {string} id @param {string} cmd
 */
export async function execDetached(host, id, cmd) {
  const exec = await engineJson(host, 'POST', `/containers/${id}/exec`, {
    Cmd: ['/bin/sh', '-c', cmd],
    Env: ['DISPLAY=:1'],
  });
  await engineJson(host, 'POST', `/exec/${exec.Id}/start`, { Detach: true });
}

/**
 * The container's memory as `docker stats` shows it (the cgroup's usage less its inactive page
 * cache), and its resident memory (rss), in bytes.
 * @param {string} host @param {string} id
 */
export async function memoryOf(host, id) {
  const stats = await engineJson(host, 'GET', `/containers/${id}/stats?stream=false&one-shot=true`);
  const { usage, stats: s } = stats.memory_stats;
  const inactive = s.total_inactive_file ?? s.inactive_file ?? 0;
  return { used: usage - inactive, rss: s.total_rss ?? s.anon ?? 0 };
}

/**
 * The container's memory once it stopped moving: read every 2 s until three readings in a row
 * lie within 2 % of each other (or a minute passed).
 * @param {string} host @param {string} id
 */
export async function settledMemory(host, id) {
  const readings = [await memoryOf(host, id)];
  for (let i = 0; i < 30; i++) {
    await sleep(2000);
    readings.push(await memoryOf(host, id));
    const last = readings.slice(-3).map((r) => r.used);
    if (last.length === 3 && Math.max(...last) <= Math.min(...last) * 1.02) break;
  }
  return readings[readings.length - 1];
}

/**
 * The host PIDs of the container's processes by command name (the engine's `top`).
 * @param {string} host @param {string} id
 * @returns {Promise<Record<string, number[]>>}
 */
export async function processesOf(host, id) {
  const top = await engineJson(host, 'GET', `/containers/${id}/top?ps_args=-o%20pid,comm`);
  /** @type {Record<string, number[]>} */
  const byName = {};
  for (const [pid, comm] of top.Processes) (byName[comm] ??= []).push(Number(pid));
  return byName;
}
