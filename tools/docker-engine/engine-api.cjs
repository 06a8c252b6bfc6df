// The few Engine API calls the test tooling makes, over a `unix://` or `tcp://` DOCKER_HOST.
const http = require('node:http');

/**
 * @typedef {object} EngineRequestOptions
 * @property {string | import('node:stream').Readable} [body] a stream is piped (a tar to import)
 * @property {Record<string, string>} [headers]
 * @property {number} [timeoutMs] how long the engine may stay silent; generous by default, as a
 *   loaded machine's engine may spend minutes removing a large image before it answers the next call
 */

const SILENCE_LIMIT_MS = 300_000;

/**
 * Calls the Engine API; resolves with the status and the raw body.
 * @param {string} host a `unix://` or `tcp://` DOCKER_HOST
 * @param {string} method
 * @param {string} urlPath
 * @param {EngineRequestOptions} [options]
 * @returns {Promise<{ status: number | undefined, body: string }>}
 */
function engineRequest(
  host,
  method,
  urlPath,
  { body, headers = {}, timeoutMs = SILENCE_LIMIT_MS } = {},
) {
  const url = host.startsWith('unix://') ? null : new URL(host.replace(/^tcp:/, 'http:'));
  const target = url
    ? { host: url.hostname, port: url.port || 2375 }
    : { socketPath: host.slice('unix://'.length) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { ...target, method, path: urlPath, headers, timeout: timeoutMs },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} on ${host} timed out`)));
    req.on('error', reject);
    if (body && typeof body !== 'string' && typeof body.pipe === 'function') body.pipe(req);
    else req.end(body);
  });
}

/** @param {string} host */
function ping(host) {
  return engineRequest(host, 'GET', '/_ping', { timeoutMs: 2_000 }).then(
    (r) => r.status === 200,
    () => false,
  );
}

/**
 * @template T the shape the Engine API answers `urlPath` with
 * @param {string} host
 * @param {string} urlPath
 * @returns {Promise<T>}
 */
async function list(host, urlPath) {
  const { status, body } = await engineRequest(host, 'GET', urlPath);
  if (status !== 200) throw new Error(`GET ${urlPath} answered ${status}: ${body}`);
  return JSON.parse(body);
}

/**
 * Empties a private engine of what tests leave: containers (with their anonymous volumes),
 * networks (each holds a bridge interface on the machine), volumes, and with `images` every
 * image tag but the test images and the workspace images (minutes to build). Never called on an
 * engine DOCKER_HOST names.
 */
const KEPT_IMAGES = ['platform-test/', 'workspace-platform/'];

/**
 * @param {string} host
 * @param {{ images: boolean }} options
 */
async function clearEngine(host, { images }) {
  /** @param {string} urlPath */
  const remove = (urlPath) => engineRequest(host, 'DELETE', urlPath).catch(() => undefined);
  /** @type {{ Id: string }[]} */
  const containers = await list(host, '/containers/json?all=true');
  await Promise.all(containers.map((c) => remove(`/containers/${c.Id}?force=true&v=true`)));
  /** @type {{ Id: string, Name: string }[]} */
  const networks = await list(host, '/networks');
  const predefined = ['bridge', 'host', 'none'];
  await Promise.all(
    networks.filter((n) => !predefined.includes(n.Name)).map((n) => remove(`/networks/${n.Id}`)),
  );
  /** @type {{ Volumes: { Name: string }[] | null }} */
  const { Volumes: volumes } = await list(host, '/volumes');
  await Promise.all((volumes ?? []).map((v) => remove(`/volumes/${v.Name}?force=true`)));
  if (!images) return;
  // Other tags go, also on the test images; an image left without a tag goes with its last one.
  /** @type {{ Id: string, RepoTags?: string[] | null }[]} */
  const allImages = await list(host, '/images/json');
  for (const image of allImages) {
    const tags = (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');
    const others = tags.filter((tag) => !KEPT_IMAGES.some((prefix) => tag.startsWith(prefix)));
    if (tags.length === 0) await remove(`/images/${image.Id}?force=true`);
    for (const tag of others) await remove(`/images/${tag}`);
  }
}

/**
 * An image's inspection, or null when the engine has no such image.
 * @param {string} host
 * @param {string} image
 * @returns {Promise<{ Id: string, Size: number, Config?: { Labels?: Record<string, string> | null } } | null>}
 */
async function imageInfo(host, image) {
  const { status, body } = await engineRequest(host, 'GET', `/images/${image}/json`);
  if (status === 404) return null;
  if (status !== 200) throw new Error(`inspecting ${image} failed (${status}): ${body}`);
  return JSON.parse(body);
}

/**
 * `docker import`: a rootfs tar stream into POST /images/create?fromSrc=-, tagged `image`, with
 * Dockerfile-like `changes` (CMD, ENV, USER, LABEL, …).
 * @param {string} host
 * @param {import('node:stream').Readable} tarStream
 * @param {string} image `repo:tag`
 * @param {string[]} changes
 */
async function importTar(host, tarStream, image, changes) {
  const [repo, tag] = image.split(':');
  const query = new URLSearchParams({ fromSrc: '-', repo, tag });
  for (const change of changes) query.append('changes', change);
  const { status, body } = await engineRequest(host, 'POST', `/images/create?${query}`, {
    body: tarStream,
    headers: { 'content-type': 'application/x-tar' },
    timeoutMs: 600_000,
  });
  const failure = body
    .split('\n')
    .filter(Boolean)
    .map((line) => /** @type {{ error?: string }} */ (JSON.parse(line)))
    .find((m) => m.error);
  if (status !== 200 || failure)
    throw new Error(`importing ${image} failed: ${failure?.error ?? body}`);
}

module.exports = { clearEngine, engineRequest, imageInfo, importTar, ping };
