import { Command, CommanderError } from 'commander';

/**
 * The CLI's commands on commander: every `-h`/`--help` prints the one usage text, and words no
 * command takes are `Unknown command "…"` followed by the usage, as the CLI always answered.
 */
export function cliProgram(usage: string) {
  /** What was typed, from the first command word on. */
  const typed = (cmd: Command): string[] => {
    const names: string[] = [];
    for (let at: Command | null = cmd; at?.parent; at = at.parent) names.unshift(at.name());
    return [...names, ...cmd.args];
  };
  const unknown = (cmd: Command): never => {
    throw new Error(`Unknown command "${typed(cmd).join(' ')}"\n\n${usage}`);
  };

  const root = new Command()
    .helpCommand(false)
    .allowExcessArguments(true)
    .configureHelp({ formatHelp: () => `${usage}\n` })
    .configureOutput({ outputError: () => undefined })
    .exitOverride();
  root.action((_options, cmd: Command) =>
    cmd.args.length === 0 ? void process.stdout.write(`${usage}\n`) : unknown(cmd),
  );

  return {
    root,
    /** A command of `parent` that only holds others: alone or with other words it is unknown. */
    group: (parent: Command, name: string) =>
      parent.command(name).action((_options, cmd: Command) => unknown(cmd)),
    /** An action taking `min` to `max` words (its declared arguments), then its options. */
    leaf:
      <A extends unknown[]>(run: (...args: A) => unknown, min = 0, max = min) =>
      async (...args: unknown[]) => {
        const cmd = args.at(-1) as Command;
        if (cmd.args.length < min || cmd.args.length > max) unknown(cmd);
        await run(...(args.slice(0, -1) as A));
      },
  };
}

/**
 * Runs the CLI on `argv`: a failure (ours, or commander's for an unknown option or a missing
 * value) is printed as `describe` words it on stderr, with exit code 1; help exits 0.
 */
export function runCli(root: Command, argv: string[], describe: (error: unknown) => string) {
  root.parseAsync(argv, { from: 'user' }).catch((error: unknown) => {
    if (error instanceof CommanderError && error.code === 'commander.helpDisplayed') return;
    process.stderr.write(`${error instanceof CommanderError ? error.message : describe(error)}\n`);
    process.exit(1);
  });
}
