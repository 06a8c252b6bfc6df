import { execFile } from 'node:child_process';
import { ROOT } from './support/repo';

// The repository's own ESLint configuration on snippets saved as files of the apps: another
// feature is reached through its face (its folder's index.ts), never through one of its files.

interface Snippet {
  file: string;
  code: string;
}

/** Each snippet's errors from the face rule (no-restricted-imports/-syntax), as `rule:line`. */
function faceProblems(snippets: Snippet[]): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['tools/test/support/lint-text.mjs'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error);
        const results = JSON.parse(stdout) as {
          ruleId: string | null;
          severity: number;
          line: number;
        }[][];
        resolve(
          results.map((messages) =>
            messages
              .filter((m) => m.severity === 2 && m.ruleId?.startsWith('no-restricted-'))
              .map((m) => `${m.ruleId}:${m.line}`),
          ),
        );
      },
    );
    child.stdin?.end(JSON.stringify(snippets));
  });
}

const USE = 'export const used = [one];\n';
// [where from, the file, a file of another feature, that feature's face]
const CASES = [
  ['a feature', 'apps/workspace-api/src/groups/x.ts', '../users/users.repository', '../users'],
  ['a feature', 'apps/calendar-api/src/feed/x.ts', '../events/event-row', '../events'],
  [
    'a folder inside a feature',
    'apps/workspace-api/src/admin-console/sections/x.ts',
    '../../users/users.repository',
    '../../users',
  ],
  [
    'a folder two deep inside a feature',
    'apps/workspace-api/src/admin-console/sections/parts/x.ts',
    '../../../groups/groups.service',
    '../../../groups',
  ],
  ['a composition root', 'apps/workspace-api/src/app.ts', './users/users.routes', './users'],
  ['a composition root', 'apps/calendar-api/src/cli.ts', './feed/feed.service', './feed'],
  [
    'a test helper',
    'apps/workspace-api/test/x.ts',
    '../src/api-keys/permissions',
    '../src/api-keys',
  ],
  [
    'a test',
    'apps/calendar-api/test/reliability/x.test.ts',
    '../../src/chat/slack-signature',
    '../../src/chat',
  ],
] as const;

const snippetsOf = ([, file, deep, face]: (typeof CASES)[number]): Snippet[] => [
  { file, code: `import { one } from '${deep}';\n${USE}` },
  { file, code: `export { one } from '${deep}';\n` },
  { file, code: `export const load = () => import('${deep}');\n` },
  { file, code: `import { one } from '${face}';\n${USE}` },
  { file, code: `export const load = () => import('${face}');\n` },
];

const ALLOWED: Snippet[] = [
  {
    // A feature's own files, the shared root files, the generated client (in a repository), the
    // test helpers.
    file: 'apps/workspace-api/src/users/x.repository.ts',
    code: [
      "import { own } from './users.repository';",
      "import { config } from '../config';",
      "import type { User } from '../generated/prisma/client';",
      "import { harness } from '../../test/harness';",
      'export const used: unknown[] = [own, config, harness, null as User | null];',
      '',
    ].join('\n'),
  },
  {
    file: 'apps/calendar-api/src/app.ts',
    code: "import { openDatabase } from './db';\nimport { loadConfig } from './config';\nexport const used = [openDatabase, loadConfig];\n",
  },
];

// Outside repositories and db/, the generated client is refused too: both rules hold at once.
const PRISMA_OUTSIDE: Snippet[] = [
  {
    file: 'apps/workspace-api/src/users/x.ts',
    code: "import { Prisma } from '../generated/prisma/client';\nimport { one } from '../groups/groups.service';\nexport const used = [Prisma, one];\n",
  },
];

let problems: string[][];
beforeAll(async () => {
  problems = await faceProblems([...CASES.flatMap(snippetsOf), ...ALLOWED, ...PRISMA_OUTSIDE]);
}, 120_000);

describe("the lint rule on imports of another feature's files", () => {
  it.each(CASES.map((c, i) => [...c, i] as const))(
    'from %s (%s): fails on %s, passes on %s',
    (_from, _file, _deep, _face, i) => {
      const [imported, reExported, loaded, viaFace, loadedViaFace] = problems.slice(
        i * 5,
        i * 5 + 5,
      );
      expect(imported).toEqual(['no-restricted-imports:1']);
      expect(reExported).toEqual(['no-restricted-imports:1']);
      expect(loaded).toEqual(['no-restricted-syntax:1']);
      expect(viaFace).toEqual([]);
      expect(loadedViaFace).toEqual([]);
    },
  );

  it("passes on a feature's own files, the shared root files, the generated client and test helpers", () => {
    expect(problems.slice(CASES.length * 5, CASES.length * 5 + ALLOWED.length)).toEqual([[], []]);
  });

  it("refuses the generated client outside the data layer beside another feature's file", () => {
    expect(problems.slice(CASES.length * 5 + ALLOWED.length)).toEqual([
      ['no-restricted-imports:1', 'no-restricted-imports:2'],
    ]);
  });
});
