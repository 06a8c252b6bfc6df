import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { docker } from './docker';

// The machine's cache folder and the workspace images' Debian rootfs, from the workspace's own
// tooling (tools/ is no Nx project).
const { cacheDir } =
  // eslint-disable-next-line @nx/enforce-module-boundaries
  require('../../../../tools/cache-dir.cjs') as { cacheDir(name: string): string };
const { baseRootfsTar } =
  // eslint-disable-next-line @nx/enforce-module-boundaries
  require('../../../../tools/workspaces/workspace-images.cjs') as {
    baseRootfsTar(): Promise<string>;
  };

// Stand-ins for the public base images when the engine cannot pull them (no registry but npm's
// and Debian's is reachable here). They are tagged platform-test/standin-*, which the private
// engine keeps between runs. The Debian rootfs they start from is the workspace images' `base`
// stage (Debian minbase from the machine's mirror, pruned), cached outside the clone: the engine
// tests have built it by the time CI's deploy step runs.
const CACHE_DIR = cacheDir('deploy-standins');
const STANDINS_DIR = path.join(__dirname, '../standins');
const DEBIAN_IMAGE = 'platform-test/standin-debian:bookworm';
const SLIM_DIR = path.join(STANDINS_DIR, 'slim');
const NPM_DIR = path.join(path.dirname(process.execPath), '../lib/node_modules/npm');

interface Standin {
  name: string;
  dockerfile: string;
  /** Files the build copies, by their name in the build context. */
  context: Record<string, string>;
  /** Files written into the build context. */
  written?: () => Record<string, string>;
}

/** npm's global config in the stand-in: this machine's npm `cafile`, when it has one. */
function npmTrust(): Record<string, string> {
  // Outside the workspace and npm's own environment: the machine's settings, not this run's.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
  );
  const cafile = execFileSync('npm', ['config', 'get', 'cafile'], {
    encoding: 'utf8',
    cwd: '/',
    env,
  }).trim();
  if (!cafile || cafile === 'null' || !existsSync(cafile)) return { npmrc: '', 'npm-ca.crt': '' };
  return {
    npmrc: 'cafile=/usr/local/etc/npm-ca.crt\n',
    'npm-ca.crt': readFileSync(cafile, 'utf8'),
  };
}

const STANDINS: Record<string, Standin> = {
  'node:20-bookworm-slim': {
    name: 'node',
    dockerfile: 'node.Dockerfile',
    context: { slim: SLIM_DIR, node: process.execPath, npm: NPM_DIR },
    written: npmTrust,
  },
  'postgres:15': {
    name: 'postgres',
    dockerfile: 'postgres.Dockerfile',
    context: {
      slim: SLIM_DIR,
      'postgres-entrypoint.sh': path.join(STANDINS_DIR, 'postgres-entrypoint.sh'),
    },
  },
};

const exists = (image: string) =>
  docker(['image', 'inspect', image]).then(
    () => true,
    () => false,
  );

/** Every file of the stand-ins' folder, and the versions of node and npm they copy. */
function inputsHash(standin: Standin): string {
  const hash = createHash('sha256').update(process.version);
  for (const [name, content] of Object.entries(standin.written?.() ?? {}))
    hash.update(name).update(content);
  hash.update(readFileSync(path.join(NPM_DIR, 'package.json')));
  const files = readdirSync(STANDINS_DIR, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(STANDINS_DIR, file);
    if (statSync(full).isFile()) hash.update(file).update(readFileSync(full));
  }
  return hash.digest('hex').slice(0, 12);
}

async function buildStandin(standin: Standin, image: string): Promise<void> {
  if (!(await exists(DEBIAN_IMAGE))) await docker(['import', await baseRootfsTar(), DEBIAN_IMAGE]);
  mkdirSync(CACHE_DIR, { recursive: true });
  const context = mkdtempSync(path.join(CACHE_DIR, `context-${standin.name}-`));
  try {
    for (const [name, from] of Object.entries(standin.context)) {
      cpSync(from, path.join(context, name), { recursive: true, verbatimSymlinks: true });
    }
    for (const [name, content] of Object.entries(standin.written?.() ?? {})) {
      writeFileSync(path.join(context, name), content);
    }
    cpSync(path.join(STANDINS_DIR, standin.dockerfile), path.join(context, 'Dockerfile'));
    // Host network: this engine's bridge has no NAT, and apt must reach Debian's mirror.
    await docker(['build', '--network=host', '-t', image, context]);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

export type BaseImageOrigin = 'present' | 'pulled' | 'stand-in built' | 'stand-in reused';

/** Makes `tag` available to FROM: already there, pulled, or a stand-in built offline. */
export async function ensureBaseImage(
  tag: string,
): Promise<{ origin: BaseImageOrigin; why?: string }> {
  if (await exists(tag)) return { origin: 'present' };
  const pull = await docker(['pull', tag], { timeoutMs: 60_000 }).then(
    () => undefined,
    (error: Error) => error.message.split('\n').filter(Boolean).slice(-1)[0],
  );
  if (pull === undefined) return { origin: 'pulled' };
  const standin = STANDINS[tag];
  if (!standin) throw new Error(`${tag} cannot be pulled (${pull}) and has no stand-in`);
  const kept = `platform-test/standin-${standin.name}:${inputsHash(standin)}`;
  const reused = await exists(kept);
  if (!reused) await buildStandin(standin, kept);
  await docker(['tag', kept, tag]);
  return { origin: reused ? 'stand-in reused' : 'stand-in built', why: pull };
}
