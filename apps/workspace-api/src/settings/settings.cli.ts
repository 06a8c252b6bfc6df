import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SettingsInvalidError } from '../errors';
import { formatProblem } from './settings-problems';
import { settingsJsonSchemaText } from './settings-file.schemas';
import { countChanges, formatChange } from './settings-format';
import type { SettingsService } from './settings.service';
import { SETTINGS_USAGE } from '../cli-usage';

export interface SettingsCliContext {
  out: (line?: string) => void;
  err: { write: (s: string) => unknown };
  /** Where relative paths are resolved; npm runs scripts elsewhere but passes INIT_CWD. */
  cwd: string;
}

/** Prints `text`, or writes it to `file` (relative to where the command was run). */
export async function emitText(
  text: string,
  file: string | undefined,
  ctx: SettingsCliContext,
  what: string,
) {
  if (!file) return ctx.out(text.replace(/\n$/, ''));
  const target = path.resolve(ctx.cwd, file);
  await writeFile(target, text);
  ctx.err.write(`Wrote ${what} to ${target}\n`);
}

/** `settings schema` needs no database, so it runs before any configuration is read. */
export const runSettingsSchemaCommand = (file: string | undefined, ctx: SettingsCliContext) =>
  emitText(settingsJsonSchemaText(), file, ctx, 'the settings JSON Schema');

export async function runSettingsCommand(
  args: string[],
  flags: { prune: boolean; dryRun: boolean },
  ctx: SettingsCliContext & { settings: SettingsService },
): Promise<void> {
  const [command, file] = args;
  if (command === 'export') return emitText(await ctx.settings.export(), file, ctx, 'the settings');
  if (command !== 'apply' || !file)
    throw new Error(`Unknown settings command "${args.join(' ')}"\n\n${SETTINGS_USAGE}`);

  const filePath = path.resolve(ctx.cwd, file);
  const result = await ctx.settings.apply(filePath, flags);
  if (result.status === 'invalid') {
    for (const problem of result.problems) ctx.err.write(`${formatProblem(file, problem)}\n`);
    throw new SettingsInvalidError(file, String(result.problems.length));
  }
  for (const change of result.changes) ctx.out(formatChange(change));
  if (result.status === 'unchanged') ctx.out(`No changes: the database already matches ${file}.`);
  else if (result.status === 'dry_run')
    ctx.out(`Dry run: ${countChanges(result.changes)}; nothing was written.`);
  else ctx.out(`Applied ${result.written} change(s): ${countChanges(result.changes, true)}.`);
}
