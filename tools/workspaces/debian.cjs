// @ts-check
// Debian rootfs steps for the workspace images: debootstrap from the mirror this machine's apt
// already uses, commands in a chroot, and tar archives of the result.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const SUITE = 'bookworm';

/**
 * The apt sources of this machine for Debian 12 (`deb <uri> <suite> main` lines), from deb822
 * `.sources` files and classic `.list` files alike, and the mirror of the main suite.
 * @param {string} [etc] where apt's configuration is
 */
function aptSources(etc = '/etc/apt') {
  const files = [path.join(etc, 'sources.list'), ...listDir(path.join(etc, 'sources.list.d'))];
  /** @type {{uri: string, suite: string}[]} */
  const entries = [];
  for (const file of files.filter((f) => /\.(list|sources)$/.test(f) && fs.existsSync(f))) {
    const text = fs.readFileSync(file, 'utf8');
    if (file.endsWith('.sources')) entries.push(...deb822Entries(text));
    else entries.push(...classicEntries(text));
  }
  const debian = entries.filter((e) => e.suite === SUITE || e.suite.startsWith(`${SUITE}-`));
  const main = debian.find((e) => e.suite === SUITE);
  if (!main) throw new Error(`no "${SUITE}" source in ${etc}: the workspace images need one`);
  return {
    mirror: main.uri,
    lines: debian.map((e) => `deb ${e.uri} ${e.suite} main`),
  };
}

/** @param {string} dir */
function listDir(dir) {
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
}

/** @param {string} text */
function deb822Entries(text) {
  return text.split(/\n\s*\n/).flatMap((stanza) => {
    const field = (/** @type {string} */ name) =>
      new RegExp(`^${name}:\\s*(.+)$`, 'mi').exec(stanza)?.[1].trim().split(/\s+/) ?? [];
    const enabled = !/^Enabled:\s*no\b/im.test(stanza);
    if (!enabled || !field('Types').includes('deb') || !field('Components').includes('main'))
      return [];
    return field('URIs').flatMap((uri) => field('Suites').map((suite) => ({ uri, suite })));
  });
}

/** @param {string} text */
function classicEntries(text) {
  return text.split('\n').flatMap((line) => {
    const match = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)$/.exec(line.trim());
    return match && match[3].split(/\s+/).includes('main')
      ? [{ uri: match[1], suite: match[2] }]
      : [];
  });
}

/**
 * Runs a command; rejects with the end of its output when it fails. Output goes to `log`.
 * @param {string} command @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, log?: (text: string) => void }} [options]
 */
function run(command, args, { env, log } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let tail = '';
    const take = (/** @type {Buffer} */ chunk) => {
      tail = (tail + chunk).slice(-4000);
      log?.(String(chunk));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(undefined)
        : reject(
            new Error(`${command} ${args.slice(0, 3).join(' ')} … failed (${code}):\n${tail}`),
          ),
    );
  });
}

const CHROOT_ENV = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  DEBIAN_FRONTEND: 'noninteractive',
  LANG: 'C.UTF-8',
  HOME: '/root',
};

/**
 * A shell script in the rootfs as root, with /proc mounted and the package cache `debs` as apt's
 * archives, in a private mount namespace: the mounts end with the command whatever happens.
 * @param {string} root @param {string} script @param {string} debs
 */
function inChroot(root, script, debs) {
  fs.mkdirSync(path.join(debs, 'partial'), { recursive: true });
  const outer = [
    'mount -t proc proc "$1/proc"',
    'mkdir -p "$1/var/cache/apt/archives"',
    'mount --bind "$3" "$1/var/cache/apt/archives"',
    'exec chroot "$1" /bin/sh -euc "$2"',
  ].join(' && ');
  return run('unshare', ['--mount', '--fork', 'sh', '-c', outer, 'sh', root, script, debs], {
    env: CHROOT_ENV,
  });
}

/**
 * Prepares a rootfs for apt: no services started, the machine's Debian sources and DNS.
 * @param {string} root @param {string[]} sourceLines
 */
function prepareApt(root, sourceLines) {
  fs.writeFileSync(path.join(root, 'usr/sbin/policy-rc.d'), '#!/bin/sh\nexit 101\n', {
    mode: 0o755,
  });
  fs.writeFileSync(path.join(root, 'etc/apt/sources.list'), `${sourceLines.join('\n')}\n`);
  fs.rmSync(path.join(root, 'etc/resolv.conf'), { force: true });
  fs.copyFileSync('/etc/resolv.conf', path.join(root, 'etc/resolv.conf'));
}

/** What an image must not carry from its build: the build's DNS and the no-services rule. @param {string} root */
function unprepareApt(root) {
  fs.rmSync(path.join(root, 'usr/sbin/policy-rc.d'), { force: true });
  fs.writeFileSync(path.join(root, 'etc/resolv.conf'), '');
}

/** @param {string} tar @param {string} root */
const extract = (tar, root) => run('tar', ['-C', root, '--numeric-owner', '-xpf', tar]);

/** Writes the rootfs as a tar, atomically (a reader never sees half of it). @param {string} root @param {string} tar */
async function archive(root, tar) {
  const partial = `${tar}.partial-${process.pid}`;
  await run('tar', ['-C', root, '--numeric-owner', '-cf', partial, '.']);
  fs.renameSync(partial, tar);
}

module.exports = { SUITE, aptSources, archive, extract, inChroot, prepareApt, run, unprepareApt };
