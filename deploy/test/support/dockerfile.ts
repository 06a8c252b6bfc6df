import { DockerfileParser, type Instruction } from 'dockerfile-ast';

export interface Step {
  keyword: string;
  flags: Record<string, string | null>;
  /** What follows the keyword and its flags, continuation lines joined. */
  text: string;
  /** `text` split on whitespace, as COPY and WORKDIR read it. */
  args: string[];
}

export interface Stage {
  name: string;
  /** An image, or the name of an earlier stage. */
  from: string;
  steps: Step[];
}

function flagsOf(instruction: Instruction): Record<string, string | null> {
  if (!('getFlags' in instruction) || typeof instruction.getFlags !== 'function') return {};
  const flags = instruction.getFlags() as { getName(): string; getValue(): string | null }[];
  return Object.fromEntries(flags.map((f) => [f.getName(), f.getValue()]));
}

/** The stages of a Dockerfile, each with its instructions after FROM. */
export function parseDockerfile(content: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(content).getInstructions()) {
    const keyword = instruction.getKeyword();
    const args = instruction.getArguments().map((a) => a.getValue());
    if (keyword === 'FROM') {
      const named = args.length === 3 && args[1].toUpperCase() === 'AS';
      stages.push({ name: named ? args[2] : String(stages.length), from: args[0], steps: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${keyword} before the first FROM`);
    const text = instruction.getArgumentsContent() ?? '';
    stage.steps.push({ keyword, flags: flagsOf(instruction), text, args });
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
