// The few Engine API calls the test tooling makes, over a `unix://` or `tcp://` DOCKER_HOST.
const http = require('node:http');

/** Calls the Engine API; resolves with the status and the raw body. */
function engineRequest(host, method, urlPath, { body, headers = {}, timeoutMs = 30_000 } = {}) {
  const url = host.startsWith('unix://') ? null : new URL(host.replace(/^tcp:/, 'http:'));
  const target = url
    ? { host: url.hostname, port: url.port || 2375 }
    : { socketPath: host.slice('unix://'.length) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { ...target, method, path: urlPath, headers, timeout: timeoutMs },
      (res) => {
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
    if (body && typeof body.pipe === 'function') body.pipe(req);
    else req.end(body);
  });
}

function ping(host) {
  return engineRequest(host, 'GET', '/_ping', { timeoutMs: 2_000 }).then(
    (r) => r.status === 200,
    () => false,
  );
}

async function list(host, urlPath) {
  const { status, body } = await engineRequest(host, 'GET', urlPath);
  if (status !== 200) throw new Error(`GET ${urlPath} answered ${status}: ${body}`);
  return JSON.parse(body);
}

/**
 * Empties a private engine of what tests leave: containers (with their anonymous volumes),
 * networks (each holds a bridge interface on the machine), volumes, and with `images` every
 * image tag but platform-test/*. Never called on an engine DOCKER_HOST names.
 */
async function clearEngine(host, { images }) {
  const remove = (urlPath) => engineRequest(host, 'DELETE', urlPath).catch(() => undefined);
  const containers = await list(host, '/containers/json?all=true');
  await Promise.all(containers.map((c) => remove(`/containers/${c.Id}?force=true&v=true`)));
  const networks = await list(host, '/networks');
  const predefined = ['bridge', 'host', 'none'];
  await Promise.all(
    networks.filter((n) => !predefined.includes(n.Name)).map((n) => remove(`/networks/${n.Id}`)),
  );
  const { Volumes: volumes } = await list(host, '/volumes');
  await Promise.all((volumes ?? []).map((v) => remove(`/volumes/${v.Name}?force=true`)));
  if (!images) return;
  // Other tags go, also on the test images; an image left without a tag goes with its last one.
  for (const image of await list(host, '/images/json')) {
    const tags = (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');
    const others = tags.filter((tag) => !tag.startsWith('platform-test/'));
    if (tags.length === 0) await remove(`/images/${image.Id}?force=true`);
    for (const tag of others) await remove(`/images/${tag}`);
  }
}

module.exports = { clearEngine, engineRequest, ping };
