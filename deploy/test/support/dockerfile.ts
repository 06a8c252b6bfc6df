import { Arg, DockerfileParser, Env, type Instruction } from 'dockerfile-ast';

export interface Step {
  keyword: string;
  flags: Record<string, string | null>;
  /** What follows the keyword and its flags, continuation lines joined, variables resolved. */
  text: string;
  /** The same as written, before any variable is resolved. */
  source: string;
  /** `text` split on whitespace, as COPY and WORKDIR read it. */
  args: string[];
}

export interface Stage {
  name: string;
  /** An image, or the name of an earlier stage. */
  from: string;
  steps: Step[];
  /** Its ENV variables after its last step, those of the stage it builds on included. */
  env: Record<string, string>;
}

type Scope = Record<string, string>;

const VARIABLE = /\$\{(\w+)(?::([-+])([^}]*))?\}|\$(\w+)/g;

/** `$X`, `${X}`, `${X:-word}`, `${X:+word}`; a name outside the scope stays as written. */
function substitute(text: string, scope: Scope): string {
  return text.replace(
    VARIABLE,
    (match, braced?: string, operator?: string, word = '', bare?: string) => {
      const value = scope[(braced ?? bare) as string] as string | undefined;
      if (operator === '-') return value || word;
      if (operator === '+') return value ? word : '';
      return value ?? match;
    },
  );
}

// Docker resolves variables itself in most instructions. A RUN's shell finds the ARGs and ENVs in
// its environment; a shell-form CMD, ENTRYPOINT or HEALTHCHECK runs in the container, which has
// the ENVs only. An exec form is never resolved.
const RUN_TIME = new Set(['CMD', 'ENTRYPOINT', 'HEALTHCHECK']);
const isExecForm = (keyword: string, text: string) =>
  /^\[/.test(keyword === 'HEALTHCHECK' ? text.replace(/^CMD\s+/, '') : text);

function scopeOf(keyword: string, text: string, args: Scope, env: Scope): Scope {
  if (isExecForm(keyword, text) && (keyword === 'RUN' || RUN_TIME.has(keyword))) return {};
  return RUN_TIME.has(keyword) ? env : { ...args, ...env };
}

function flagsOf(instruction: Instruction): Record<string, string | null> {
  if (!('getFlags' in instruction) || typeof instruction.getFlags !== 'function') return {};
  const flags = instruction.getFlags() as { getName(): string; getValue(): string | null }[];
  return Object.fromEntries(flags.map((f) => [f.getName(), f.getValue()]));
}

/** An ARG's value: the build argument, else its default, else (inside a stage) the global's. */
function declare(instruction: Arg, into: Scope, visible: Scope, buildArgs: Scope): void {
  const property = instruction.getProperty();
  if (!property) return;
  const name = property.getName();
  const written = property.getValue();
  const fallback = written === null ? visible[name] : substitute(written, visible);
  into[name] = buildArgs[name] ?? fallback ?? '';
}

/**
 * The stages of a Dockerfile, each with its instructions after FROM, built with `buildArgs` (as
 * `--build-arg` gives them): ARGs before the first FROM serve FROM lines and the stages' own
 * ARGs without a value; an ARG lasts to the end of its stage, an ENV also into the stages built
 * on it.
 */
export function parseDockerfile(content: string, buildArgs: Scope = {}): Stage[] {
  const globals: Scope = {};
  const stages: Stage[] = [];
  let args: Scope = {};
  for (const instruction of DockerfileParser.parse(content).getInstructions()) {
    const keyword = instruction.getKeyword();
    const stage = stages.at(-1);
    if (instruction instanceof Arg) {
      declare(
        instruction,
        stage ? args : globals,
        { ...globals, ...args, ...stage?.env },
        buildArgs,
      );
      if (!stage) continue;
    }
    const words = instruction.getArguments().map((a) => a.getValue());
    if (keyword === 'FROM') {
      const from = substitute(words[0], globals);
      const named = words.length === 3 && words[1].toUpperCase() === 'AS';
      const parent = stages.find((s) => s.name === from);
      stages.push({
        name: named ? words[2] : String(stages.length),
        from,
        steps: [],
        env: { ...parent?.env },
      });
      args = {};
      continue;
    }
    if (!stage) throw new Error(`${keyword} before the first FROM`);
    const source = instruction.getArgumentsContent() ?? '';
    const scope = scopeOf(keyword, source, args, stage.env);
    stage.steps.push({
      keyword,
      flags: flagsOf(instruction),
      text: substitute(source, scope),
      source,
      args: words.map((word) => substitute(word, scope)),
    });
    if (instruction instanceof Env) {
      // Every value of one ENV reads the variables as they were before it.
      const before = { ...args, ...stage.env };
      for (const property of instruction.getProperties()) {
        stage.env[property.getName()] = substitute(property.getValue() ?? '', before);
      }
    }
  }
  return stages;
}

/** The argument list of an exec-form instruction (`CMD ["node", "x.js"]`). */
export function execForm(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) {
    throw new Error(`not an exec-form argument list: ${text}`);
  }
  return parsed;
}

/** Every stage the given one builds on, itself last. */
export function lineage(stages: Stage[], name: string): Stage[] {
  const stage = stages.find((s) => s.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  const parent = stages.find((s) => s.name === stage.from);
  return parent ? [...lineage(stages, parent.name), stage] : [stage];
}
