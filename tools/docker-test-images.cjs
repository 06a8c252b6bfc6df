// The offline images the engine tests run. No registry is reachable, so each image is a rootfs
// assembled from this machine's files (static busybox; the host's node and the libraries ldd
// names) and imported through the Engine API. An image is rebuilt only when its tag is missing
// or its `platform-test.inputs` label differs from the hash of everything that goes into it.
//
//   node tools/docker-test-images.cjs   builds them into $DOCKER_HOST's engine and prints timings.
const { execFileSync, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { engineRequest, imageInfo, importTar } = require('./docker-engine/engine-api.cjs');

const TEST_WEB_IMAGE = 'platform-test/web:1';
const TEST_SHELL_IMAGE = 'platform-test/shell:1';
const BUSYBOX = '/bin/busybox';
const INPUTS_LABEL = 'platform-test.inputs';
const ROOTFS_PREFIX = 'platform-test-rootfs-';

/**
 * @typedef {object} Recipe what goes into an image's rootfs, and its docker import changes
 * @property {string} image
 * @property {{ from: string, to: string, mode: number }[]} files copied from this machine
 * @property {{ to: string, target: string }[]} links symbolic links
 * @property {string[]} dirs
 * @property {{ to: string, content: string }[]} texts
 * @property {string[]} changes
 */

function busyboxTree() {
  const applets = execFileSync(BUSYBOX, ['--list'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  return {
    files: [{ from: BUSYBOX, to: 'bin/busybox', mode: 0o755 }],
    links: applets
      .filter((a) => a !== 'busybox')
      .map((a) => ({ to: `bin/${a}`, target: 'busybox' })),
    dirs: ['etc', 'root', 'tmp', 'proc', 'sys', 'dev'],
    texts: [
      {
        to: 'etc/passwd',
        content: 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n',
      },
      { to: 'etc/group', content: 'root:x:0:\nnogroup:x:65534:\n' },
    ],
  };
}

/** The node binary running this, with the dynamic loader and every library ldd names. */
function nodeFiles() {
  const libraries = [
    ...execFileSync('ldd', [process.execPath], { encoding: 'utf8' }).matchAll(/(\/\S+) \(0x/g),
  ].map((m) => m[1]);
  return [
    { from: process.execPath, to: 'bin/node', mode: 0o755 },
    ...libraries.map((lib) => ({ from: lib, to: lib.slice(1), mode: 0o755 })),
  ];
}

/**
 * @param {string} name an npm package
 * @param {string} into its folder in the rootfs
 */
function packageFiles(name, into) {
  const root = path.dirname(require.resolve(`${name}/package.json`));
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort()
    .map((from) => ({ from, to: path.join(into, path.relative(root, from)), mode: 0o644 }));
}

/** @returns {Recipe[]} */
function recipes() {
  const busybox = busyboxTree();
  return [
    {
      image: TEST_WEB_IMAGE,
      files: [
        ...busybox.files,
        ...nodeFiles(),
        {
          from: path.join(__dirname, 'docker-test-images/web-server.cjs'),
          to: 'app/server.js',
          mode: 0o644,
        },
        ...packageFiles('ws', 'app/node_modules/ws'),
      ],
      links: busybox.links,
      dirs: busybox.dirs,
      texts: busybox.texts,
      changes: ['CMD ["/bin/node","/app/server.js"]', 'WORKDIR /app', 'EXPOSE 8080/tcp'],
    },
    {
      image: TEST_SHELL_IMAGE,
      ...busybox,
      changes: [`CMD ["/bin/sh","-c","trap 'exit 0' TERM; while true; do sleep 1; done"]`],
    },
  ];
}

/** @param {Recipe} recipe */
function inputsHash(recipe) {
  const hash = crypto.createHash('sha256');
  hash.update(JSON.stringify({ ...recipe, files: recipe.files.map(({ to, mode }) => [to, mode]) }));
  for (const file of recipe.files) hash.update(fs.readFileSync(file.from));
  return hash.digest('hex').slice(0, 32);
}

/**
 * @param {Recipe} recipe
 * @param {string} root
 */
function assemble(recipe, root) {
  for (const dir of recipe.dirs) fs.mkdirSync(path.join(root, dir), { recursive: true });
  fs.chmodSync(path.join(root, 'tmp'), 0o1777);
  for (const { from, to, mode } of recipe.files) {
    fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
    fs.copyFileSync(from, path.join(root, to));
    fs.chmodSync(path.join(root, to), mode);
  }
  for (const { to, target } of recipe.links) fs.symlinkSync(target, path.join(root, to));
  for (const { to, content } of recipe.texts) fs.writeFileSync(path.join(root, to), content);
}

/** Rootfs folders of builds whose process was interrupted (the folder names its pid). */
function removeStaleRootfs() {
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(ROOTFS_PREFIX))) {
    const pid = Number(name.slice(ROOTFS_PREFIX.length).split('-')[0]);
    let alive = pid > 0;
    try {
      process.kill(pid, 0);
    } catch (error) {
      alive = /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
    }
    if (!alive) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

/**
 * @param {string} host
 * @param {string} image
 */
async function imageLabel(host, image) {
  const info = await imageInfo(host, image);
  return { id: info?.Id ?? null, label: info?.Config?.Labels?.[INPUTS_LABEL] ?? null };
}

/**
 * `docker import` of the rootfs folder, as a tar stream.
 * @param {string} host
 * @param {string} root
 * @param {string} image
 * @param {string[]} changes
 */
async function importRootfs(host, root, image, changes) {
  const tar = spawn('tar', ['-C', root, '--owner=0', '--group=0', '--numeric-owner', '-c', '.'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tarError = '';
  tar.stderr.on('data', (c) => (tarError += c));
  const tarExit = new Promise((resolve) => tar.once('close', resolve));
  const [code, importError] = await Promise.all([
    tarExit,
    importTar(host, tar.stdout, image, changes).then(
      () => null,
      (error) => error,
    ),
  ]);
  if (code !== 0) throw new Error(`tar of the ${image} rootfs failed: ${tarError}`);
  if (importError) throw importError;
}

/**
 * @typedef {{ image: string, built: boolean, ms: number }} ImageReport
 */

/**
 * Builds whichever test image is missing or stale; returns what it did, with timings.
 * @param {string} host
 */
async function ensureTestImages(host) {
  removeStaleRootfs();
  /** @type {ImageReport[]} */
  const report = [];
  for (const recipe of recipes()) {
    const started = Date.now();
    const hash = inputsHash(recipe);
    const existing = await imageLabel(host, recipe.image);
    if (existing.label === hash) {
      report.push({ image: recipe.image, built: false, ms: Date.now() - started });
      continue;
    }
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `${ROOTFS_PREFIX}${process.pid}-`));
    try {
      assemble(recipe, root);
      await importRootfs(host, root, recipe.image, [
        ...recipe.changes,
        `LABEL ${INPUTS_LABEL}=${hash}`,
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    // The replaced image would linger untagged on a long-lived engine; one still in use stays.
    if (existing.id) await engineRequest(host, 'DELETE', `/images/${existing.id}`).catch(() => {});
    report.push({ image: recipe.image, built: true, ms: Date.now() - started });
  }
  return report;
}

/** @param {ImageReport[]} report */
function formatReport(report) {
  return report
    .map((r) => `${r.image} ${r.built ? 'built' : 'reused'} in ${(r.ms / 1000).toFixed(1)} s`)
    .join(', ');
}

if (require.main === module) {
  const host = process.env.DOCKER_HOST;
  if (!host) {
    process.stderr.write('set DOCKER_HOST (see: node tools/docker-engine.cjs serve)\n');
    process.exit(2);
  }
  ensureTestImages(host).then(
    (report) => process.stdout.write(`${formatReport(report)}\n`),
    (error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
}

module.exports = { ensureTestImages, formatReport, TEST_SHELL_IMAGE, TEST_WEB_IMAGE };
