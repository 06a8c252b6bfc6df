import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AggregatedResult, Test } from '@jest/test-result';
import EngineSequencer from '../jest/engine-sequencer.cjs';

describe("the test sequencer's order (tools/jest/engine-sequencer.cjs)", () => {
  let cache: string;
  const saved = { cache: process.env.PLATFORM_CACHE_DIR, group: process.env.TEST_GROUP };
  const rootDir = '/clone/apps/some-api';
  const context = {
    config: { rootDir, cacheDirectory: '', id: 'sequencer-test', haste: {} },
    hasteFS: { getSize: () => 100 },
  };
  const test = (file: string) => ({ path: path.join(rootDir, file), context }) as unknown as Test;
  const durations = path.join('test-durations', 'some-api-others.json');
  const sequencer = () => {
    context.config.cacheDirectory = cache;
    return new EngineSequencer({ contexts: [], globalConfig: {} } as never);
  };

  beforeEach(async () => {
    cache = await mkdtemp(path.join(tmpdir(), 'engine-sequencer-'));
    process.env.PLATFORM_CACHE_DIR = cache;
    process.env.TEST_GROUP = 'others';
  });
  afterEach(async () => {
    process.env.PLATFORM_CACHE_DIR = saved.cache;
    process.env.TEST_GROUP = saved.group;
    await rm(cache, { recursive: true, force: true });
  });

  it("runs the longest files of this machine's last run first, and files it never ran before them", async () => {
    await mkdir(path.join(cache, 'test-durations'));
    await writeFile(
      path.join(cache, durations),
      JSON.stringify({ 'src/short.test.ts': 1, 'test/long.test.ts': 90, 'src/middle.test.ts': 12 }),
    );
    const files = [
      'src/short.test.ts',
      'src/new.test.ts',
      'src/middle.test.ts',
      'test/long.test.ts',
    ];
    const order = (await sequencer().sort(files.map(test))).map((t) =>
      path.relative(rootDir, t.path),
    );
    expect(order).toEqual([
      'src/new.test.ts',
      'test/long.test.ts',
      'src/middle.test.ts',
      'src/short.test.ts',
    ]);
  });

  it('keeps each file’s duration by its path in the project, whatever the clone', async () => {
    const results = {
      testResults: [
        { testFilePath: path.join(rootDir, 'src/a.test.ts'), perfStats: { start: 0, end: 2500 } },
        {
          testFilePath: path.join(rootDir, 'src/broken.test.ts'),
          perfStats: { start: 0, end: 10 },
          testExecError: { message: 'did not load' },
        },
      ],
    } as unknown as AggregatedResult;
    sequencer().cacheResults([test('src/a.test.ts')], results);
    expect(JSON.parse(await readFile(path.join(cache, durations), 'utf8'))).toEqual({
      'src/a.test.ts': 2.5,
    });
  });
});
