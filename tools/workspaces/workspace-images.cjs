// @ts-check
// Builds the workspace images (recipes.cjs) into a Docker engine. Each stage's rootfs is cached
// as a tar in the cache folder outside the clone (tools/cache-dir.cjs), named by the hash of its
// recipe and its parent's hash, so every clone on the machine shares it; an image
// is imported again only when the engine's copy lacks that hash in its label. So a second build,
// or another engine (the tests' private one), costs an import at most.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { engineRequest, importTar, imageInfo } = require('../docker-engine/engine-api.cjs');
const esbuild = require('esbuild');
const { cacheDir } = require('../cache-dir.cjs');
const debian = require('./debian.cjs');
const { IMAGE_CHANGES, IMAGE_LABELS, PRUNED, STAGES } = require('./recipes.cjs');

const CACHE_DIR = cacheDir('workspaces');
// Other clones (another branch's recipes) share the folder: a tar goes when unused this long.
const UNUSED_TAR_MS = 14 * 24 * 3600 * 1000;
const FILES_DIR = path.join(__dirname, 'rootfs');
// Downloaded packages, kept across builds: a changed recipe downloads only what is new.
const DEBS_DIR = path.join(CACHE_DIR, 'debs');
const INPUTS_LABEL = 'io.workspace-platform.workspace.inputs';
const BUILD_PREFIX = 'workspace-rootfs-';
// Bump to rebuild every stage when the build itself changes in a way the recipes do not show.
const BUILD_VERSION = '1';

/** @typedef {import('./recipes.cjs').Stage} Stage */
/** @typedef {(line: string) => void} Log */

/** Every file under rootfs/<stage>, relative, sorted. @param {string} stage */
function stageFiles(stage) {
  const dir = path.join(FILES_DIR, stage);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

/** The hashes of every stage: its recipe, its files (with their modes) and its parent's hash. */
function stageHashes() {
  /** @type {Map<string, string>} */
  const hashes = new Map();
  for (const stage of STAGES) {
    const hash = crypto.createHash('sha256').update(BUILD_VERSION);
    hash.update(JSON.stringify({ ...stage, description: undefined, suite: debian.SUITE }));
    hash.update(stage.parent ? String(hashes.get(stage.parent)) : '');
    if (stage.image) hash.update(JSON.stringify(IMAGE_CHANGES));
    if (stage.bundles) hash.update(esbuild.version);
    hash.update(JSON.stringify(PRUNED));
    for (const file of stageFiles(stage.name)) {
      const full = path.join(FILES_DIR, stage.name, file);
      hash
        .update(file)
        .update(String(fs.statSync(full).mode & 0o777))
        .update(fs.readFileSync(full));
    }
    hashes.set(stage.name, hash.digest('hex').slice(0, 16));
  }
  return hashes;
}

/** An image's inputs label: its stage's hash, and the labels applied at import. @param {string} hash */
const importInputs = (hash) =>
  `${hash}-${crypto.createHash('sha256').update(JSON.stringify(IMAGE_LABELS)).digest('hex').slice(0, 8)}`;

const tarOf = (/** @type {string} */ name, /** @type {string} */ hash) =>
  path.join(CACHE_DIR, `${name}-${hash}.tar`);

/** Copies rootfs/<stage> into the rootfs, keeping modes. @param {string} stage @param {string} root */
function copyFiles(stage, root) {
  for (const file of stageFiles(stage)) {
    const from = path.join(FILES_DIR, stage, file);
    const to = path.join(root, file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    fs.chmodSync(to, fs.statSync(from).mode & 0o777);
  }
}

/** @param {Stage} stage @param {string} root @param {Log} log */
async function buildStage(stage, root, log) {
  const sources = debian.aptSources();
  if (!stage.parent) {
    log(`debootstrap --variant=minbase ${debian.SUITE} from ${sources.mirror}`);
    // debootstrap refuses a --cache-dir that does not exist (a fresh clone has none).
    fs.mkdirSync(DEBS_DIR, { recursive: true });
    await debian.run('debootstrap', [
      '--variant=minbase',
      `--cache-dir=${DEBS_DIR}`,
      debian.SUITE,
      root,
      sources.mirror,
    ]);
  }
  debian.prepareApt(root, sources.lines);
  const steps = ['apt-get update -qq'];
  if (stage.packages.length > 0)
    steps.push(`apt-get install -y -qq --no-install-recommends ${stage.packages.join(' ')}`);
  for (const name of stage.extracted ?? [])
    steps.push(
      `cd /tmp && apt-get download -qq ${name} && dpkg-deb -x ${name}_*.deb / && rm ${name}_*.deb`,
    );
  log(
    `${stage.name}: installing ${[...stage.packages, ...(stage.extracted ?? [])].join(', ') || 'updates'}`,
  );
  await debian.inChroot(root, steps.join('\n'), DEBS_DIR);
  copyFiles(stage.name, root);
  if (stage.setup) await debian.inChroot(root, stage.setup, DEBS_DIR);
  for (const { entry, out } of stage.bundles ?? []) await bundle(root, entry, out);
  debian.unprepareApt(root);
  for (const dir of PRUNED) {
    fs.rmSync(path.join(root, dir), { recursive: true, force: true });
    fs.mkdirSync(path.join(root, dir), { recursive: true });
  }
}

/**
 * One file of an ES module and its imports, all from the rootfs: a page loads it in one request
 * instead of one per module. @param {string} root @param {string} entry @param {string} out
 */
async function bundle(root, entry, out) {
  await esbuild.build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, out),
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2020',
    logLevel: 'warning',
  });
}

/**
 * The stage's rootfs tar, from the cache or built (its parents first).
 * @param {Stage} stage @param {Map<string, string>} hashes @param {Log} log
 * @returns {Promise<{ tar: string, built: boolean }>}
 */
async function stageTar(stage, hashes, log) {
  const tar = tarOf(stage.name, String(hashes.get(stage.name)));
  if (fs.existsSync(tar)) {
    const now = new Date();
    fs.utimesSync(tar, now, now);
    return { tar, built: false };
  }
  const parent = STAGES.find((s) => s.name === stage.parent);
  const from = parent ? (await stageTar(parent, hashes, log)).tar : null;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `${BUILD_PREFIX}${process.pid}-`));
  const started = Date.now();
  try {
    if (from) await debian.extract(from, root);
    await buildStage(stage, root, log);
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    await debian.archive(root, tar);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  log(`${stage.name}: rootfs built in ${seconds(started)}`);
  return { tar, built: true };
}

const seconds = (/** @type {number} */ since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** Rootfs folders of builds whose process died, and cached tars no clone has used lately. */
function removeStale(/** @type {Map<string, string>} */ hashes) {
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(BUILD_PREFIX))) {
    const pid = Number(name.slice(BUILD_PREFIX.length).split('-')[0]);
    if (!alive(pid)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
  if (!fs.existsSync(CACHE_DIR)) return;
  const current = new Set(
    STAGES.map((s) => path.basename(tarOf(s.name, String(hashes.get(s.name))))),
  );
  for (const name of fs.readdirSync(CACHE_DIR)) {
    const partialOf = /\.partial-(\d+)$/.exec(name);
    const stale = partialOf
      ? !alive(Number(partialOf[1]))
      : name.endsWith('.tar') &&
        !current.has(name) &&
        Date.now() - fs.statSync(path.join(CACHE_DIR, name)).mtimeMs > UNUSED_TAR_MS;
    if (stale) fs.rmSync(path.join(CACHE_DIR, name), { force: true });
  }
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * The `base` stage's rootfs tar (Debian minbase and its updates, pruned), from the cache or built:
 * the root filesystem of the deploy tests' Debian stand-in too.
 * @param {{ log?: Log }} [options]
 */
async function baseRootfsTar({ log = () => {} } = {}) {
  const hashes = stageHashes();
  const base = STAGES.find((s) => !s.parent);
  if (!base) throw new Error('recipes.cjs has no stage without a parent');
  return (await stageTar(base, hashes, log)).tar;
}

/** Whether every image's rootfs tar is in the cache: making the images costs an import at most. */
function imageTarsCached() {
  const hashes = stageHashes();
  return STAGES.filter((s) => s.image).every((s) =>
    fs.existsSync(tarOf(s.name, String(hashes.get(s.name)))),
  );
}

/**
 * Makes every workspace image current in the engine at `host`; returns what it did per image.
 * @param {string} host a unix:// or tcp:// Docker host
 * @param {{ log?: Log, only?: string[] }} [options] only: the stage names of the images wanted
 */
async function ensureWorkspaceImages(host, { log = () => {}, only } = {}) {
  const hashes = stageHashes();
  removeStale(hashes);
  const report = [];
  for (const stage of STAGES.filter((s) => s.image && (!only || only.includes(s.name)))) {
    const image = String(stage.image);
    const hash = String(hashes.get(stage.name));
    const inputs = importInputs(hash);
    const started = Date.now();
    const existing = await imageInfo(host, image);
    let action = 'reused';
    if (existing?.Config?.Labels?.[INPUTS_LABEL] !== inputs) {
      const { tar, built } = await stageTar(stage, hashes, log);
      await importTar(host, fs.createReadStream(tar), image, [
        ...IMAGE_CHANGES,
        ...IMAGE_LABELS,
        `LABEL ${INPUTS_LABEL}=${inputs}`,
      ]);
      action = built ? 'built' : 'imported';
      // The replaced image would linger untagged; one a container still uses stays.
      if (existing) await engineRequest(host, 'DELETE', `/images/${existing.Id}`).catch(() => {});
    }
    const size = Math.round(((await imageInfo(host, image))?.Size ?? 0) / 1e6);
    report.push({ image, action, sizeMb: size, ms: Date.now() - started });
  }
  return report;
}

module.exports = {
  CACHE_DIR,
  INPUTS_LABEL,
  baseRootfsTar,
  ensureWorkspaceImages,
  imageTarsCached,
  stageHashes,
};
