import { spawn } from 'node:child_process';
import { cp, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { execForm, type Stage, type Step } from './dockerfile';

/** A built stage: its filesystem is a folder of this machine, its paths map into that folder. */
export interface BuiltStage {
  root: string;
  /** WORKDIR, as a path inside the image. */
  workdir: string;
  env: Record<string, string>;
  user?: string;
  entrypoint: string[];
  cmd: string[];
  healthcheck?: string[];
  /** RUN steps that were not performed here. */
  skipped: string[];
}

export const hostPath = (stage: BuiltStage, imagePath: string) =>
  path.join(stage.root, path.posix.resolve(stage.workdir, imagePath));

// Debian packages (tini) need root and the image's own OS; nothing the build or the service's
// start depends on comes from them.
const SYSTEM_PACKAGES = /^apt-get\b/;

function run(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`RUN ${command} exited with ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

async function copyFromContext(stage: BuiltStage, step: Step, context: string, files: string[]) {
  const sources = step.args.slice(0, -1);
  const dest = step.args.at(-1) as string;
  const intoFolder = dest.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    if (/[*?[]/.test(source)) throw new Error(`COPY ${source}: wildcards are not emulated`);
    const src = path.posix.normalize(source).replace(/\/$/, '');
    const matches = files.filter((f) => f === src || f.startsWith(`${src}/`));
    if (matches.length === 0) throw new Error(`COPY ${source}: not in the build context`);
    for (const file of matches) {
      const target =
        file === src
          ? intoFolder
            ? path.posix.join(dest, path.posix.basename(src))
            : dest
          : path.posix.join(dest, path.posix.relative(src, file));
      await mkdir(path.dirname(hostPath(stage, target)), { recursive: true });
      await cp(path.join(context, file), hostPath(stage, target));
    }
  }
}

async function copyFromStage(stage: BuiltStage, step: Step, from: BuiltStage) {
  const [source, dest] = step.args;
  const src = path.join(from.root, source);
  const target =
    (await stat(src)).isDirectory() || !dest.endsWith('/')
      ? dest
      : path.posix.join(dest, path.basename(source));
  await mkdir(path.dirname(hostPath(stage, target)), { recursive: true });
  await cp(src, hostPath(stage, target), { recursive: true, verbatimSymlinks: true });
}

/**
 * Performs a Dockerfile's steps on this machine, one folder per stage under `into`: COPY from the
 * build context (`files`, relative to `context`) or from an earlier stage, WORKDIR, ENV, and RUN
 * with this machine's node and npm. Returns the last stage.
 */
export async function performImageSteps(
  stages: Stage[],
  options: { context: string; files: string[]; into: string },
): Promise<BuiltStage> {
  const built = new Map<string, BuiltStage>();
  let last: BuiltStage | undefined;
  for (const stage of stages) {
    const parent = built.get(stage.from);
    const root = path.join(options.into, stage.name);
    const current: BuiltStage = parent
      ? { ...structuredClone(parent), root }
      : { root, workdir: '/', env: {}, entrypoint: [], cmd: [], skipped: [] };
    if (parent) await cp(parent.root, root, { recursive: true, verbatimSymlinks: true });
    else await mkdir(root, { recursive: true });

    for (const step of stage.steps) {
      switch (step.keyword) {
        case 'WORKDIR':
          current.workdir = path.posix.resolve(current.workdir, step.text);
          await mkdir(hostPath(current, '.'), { recursive: true });
          break;
        case 'ENV':
          for (const pair of step.args) {
            const [key, ...value] = pair.split('=');
            current.env[key] = value.join('=');
          }
          break;
        case 'COPY': {
          const from = step.flags.from;
          if (from && !built.has(from)) throw new Error(`COPY --from=${from}: no such stage`);
          await (from
            ? copyFromStage(current, step, built.get(from) as BuiltStage)
            : copyFromContext(current, step, options.context, options.files));
          break;
        }
        case 'RUN':
          if (SYSTEM_PACKAGES.test(step.text)) {
            current.skipped.push(step.text);
            break;
          }
          await run(step.text, hostPath(current, '.'), {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            // Reuses this machine's npm cache instead of asking the registry about every package.
            npm_config_prefer_offline: 'true',
            ...current.env,
          });
          break;
        case 'USER':
          current.user = step.text;
          break;
        case 'ENTRYPOINT':
          current.entrypoint = execForm(step.text);
          break;
        case 'CMD':
          current.cmd = execForm(step.text);
          break;
        case 'HEALTHCHECK':
          current.healthcheck = execForm(step.text.replace(/^CMD\s+/, ''));
          break;
        case 'EXPOSE':
          break;
        default:
          throw new Error(`${step.keyword} is not emulated`);
      }
    }
    built.set(stage.name, current);
    last = current;
  }
  if (!last) throw new Error('the Dockerfile has no stage');
  return last;
}
