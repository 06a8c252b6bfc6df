import { cliProgram } from './cli-program';

const USAGE = 'Usage: try -- <command>\n\n  thing add <name> [--loud]';

/** A program with `thing add <name> [--loud]`, recording what ran. */
function tryProgram() {
  const ran: unknown[][] = [];
  const { root, group, leaf } = cliProgram(USAGE);
  group(root, 'thing')
    .command('add')
    .argument('[name]')
    .option('--loud', '', false)
    .action(leaf((...args: unknown[]) => void ran.push(args), 1));
  return { root, ran };
}

const parse = (args: string[]) => tryProgram().root.parseAsync(args, { from: 'user' });

describe('a CLI program', () => {
  it('runs a command with its words and options', async () => {
    const { root, ran } = tryProgram();
    await root.parseAsync(['thing', 'add', 'x', '--loud'], { from: 'user' });
    expect(ran).toEqual([['x', { loud: true }]]);
  });

  it.each([
    [['thing'], 'thing'],
    [['thing', 'remove', 'x'], 'thing remove x'],
    [['thing', 'add'], 'thing add'],
    [['thing', 'add', 'x', 'y'], 'thing add x y'],
    [['other'], 'other'],
  ])('answers %j as the unknown command "%s", with the usage', async (args, typed) => {
    await expect(parse(args)).rejects.toThrow(`Unknown command "${typed}"\n\n${USAGE}`);
  });

  it('prints the usage for --help on any command, and stops there', async () => {
    const written: string[] = [];
    const write = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
    try {
      await expect(parse(['thing', 'add', '--help'])).rejects.toMatchObject({
        code: 'commander.helpDisplayed',
        exitCode: 0,
      });
      await parse([]);
    } finally {
      write.mockRestore();
    }
    expect(written).toEqual([`${USAGE}\n`, `${USAGE}\n`]);
  });

  it("refuses an option the command does not take, with commander's words", async () => {
    await expect(parse(['thing', 'add', 'x', '--quiet'])).rejects.toMatchObject({
      code: 'commander.unknownOption',
      message: "error: unknown option '--quiet'",
    });
  });
});
