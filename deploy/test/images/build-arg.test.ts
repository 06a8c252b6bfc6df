import { ROOT } from '../support/repo';
import { docker } from './support/docker';

// The Dockerfile builds either service, so a build must not go on without knowing which: on a
// real engine it stops at its check, before anything of the repository is copied in. The base
// image's layers are cached by the global setup's builds, so this takes seconds.

// The classic builder colours a step's stderr.
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

// --force-rm: the classic builder keeps a failed step's container otherwise, and the other image
// tests expect an engine with none left over.
const buildFailure = (args: string[]) =>
  docker(['build', '--network=host', '--force-rm', ...args, '.'], { cwd: ROOT }).then(
    () => 'the build succeeded',
    (error: Error) => error.message.replace(COLOUR, ''),
  );

describe('the Dockerfile without a service to build, on a real engine', () => {
  it.each([
    ['no APP', [], ''],
    ['an unknown APP', ['--build-arg', 'APP=deploy'], 'deploy'],
  ])('stops with %s, naming --build-arg APP, before it copies anything', async (_, args, app) => {
    const containers = await docker(['ps', '-aq']);
    const failure = await buildFailure(args);
    expect(await docker(['ps', '-aq'])).toBe(containers);
    // The check's own output (the step's line echoes its command, so it must start a line).
    expect(failure).toMatch(
      new RegExp(
        `^APP='${app}': build with --build-arg APP=workspace-api or --build-arg APP=calendar-api$`,
        'm',
      ),
    );
    expect(failure).toMatch(/returned a non-zero code: 1/);
    expect(failure).not.toMatch(/^Step \d+\/\d+ : COPY/m);
  });
});
