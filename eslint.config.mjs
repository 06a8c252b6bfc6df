import nx from '@nx/eslint-plugin';

/** Prisma's generated client, whichever way a file reaches it. */
const PRISMA_CLIENT = [
  '@prisma/client',
  '@prisma/client/*',
  '**/generated/prisma',
  '**/generated/prisma/**',
];

const PRISMA_OUTSIDE_DATA = {
  group: PRISMA_CLIENT,
  message: "only repositories and db/ import Prisma's client; use the repository's row type",
};

const TEST_FILES = [
  '**/*.test.ts',
  '**/test/**/*.ts',
  'libs/testing/**/*.ts',
  'libs/db/src/testing/**/*.ts',
];

/**
 * Inside an app, each folder of src/ (a feature, or db/, domain/) is used by the others only
 * through its index.ts, its public face: `../users`, never `../users/users.repository`. The
 * composition roots (src/*.ts) and the tests (test/) likewise. The apps' generated Prisma client
 * is no feature. Dynamic import() is held to the same rule.
 */
const FACE_MESSAGE =
  "Import another feature through its face (its folder's index.ts), not one of its files";
/** @param {string} regex */
const facePattern = (regex) => ({ regex, message: FACE_MESSAGE });
/** @param {...object} patterns */
const restrictedImports = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});
/** @param {string} regex */
const deepImportRules = (regex) => ({
  ...restrictedImports(facePattern(regex)),
  'no-restricted-syntax': [
    'error',
    // esquery cannot hold a "/" in a regex: \x2F stands for it.
    {
      selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`,
      message: FACE_MESSAGE,
    },
  ],
});
/**
 * From a feature's file `depth` folders below src/ (1: src/users/x.ts, 2: src/admin-console/
 * sections/x.ts): a file of another feature, reached by climbing exactly back to src/. A shorter
 * climb stays inside the feature; a longer one leaves src/ (the tests' helpers).
 * @param {number} depth
 */
const featureImport = (depth) => `^(\\.\\./){${depth}}(?!generated/)[^./][^/]*/.`;
/** The folder depths below src/ that hold files: each gets the rule for its own climb. */
const FEATURE_DEPTHS = [1, 2, 3, 4, 5];
/** @param {number} depth */
const filesAtDepth = (depth) => [`apps/*/src/${'*/'.repeat(depth)}*.ts`];
const DEEP_IMPORTS = {
  // From a composition root (app.ts, cli.ts, config.ts, ...): a file of a feature.
  root: '^\\./(?!generated/)[^./][^/]*/.',
  // From test/: a file of a feature under src/.
  test: '^(\\.\\./)+src/(?!generated/)[^./][^/]*/.',
};

const DATA_LAYER = ['apps/*/src/**/*.repository.ts', 'apps/*/src/db/**', ...TEST_FILES];

/**
 * The project-level rules; `testOnly` lists the tags a test file may use besides libs.
 * @param {string[]} testOnly
 */
const boundaries = (testOnly) => ({
  allow: [],
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', ...testOnly] },
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', ...testOnly] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
    { sourceTag: 'type:deploy', onlyDependOnLibsWithTags: ['type:lib', ...testOnly] },
    { sourceTag: 'type:tools', onlyDependOnLibsWithTags: ['type:lib', ...testOnly] },
  ],
});

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: ['**/dist', '**/generated', '**/node_modules', '.nx', '.data', 'bench/results'],
  },
  {
    files: ['**/*.ts'],
    rules: {
      // Apps may use libs; libs use only libs; nothing imports an app. The deploy checks use
      // libs (the migration runner) and only read the apps' files. @platform/testing
      // (type:testing) is for tests only: production code cannot import it.
      '@nx/enforce-module-boundaries': ['error', boundaries([])],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // Tests and their support files may also use the test-only lib.
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(['type:testing'])],
    },
  },
  ...FEATURE_DEPTHS.map((depth) => ({
    files: filesAtDepth(depth),
    rules: deepImportRules(featureImport(depth)),
  })),
  { files: ['apps/*/src/*.ts'], rules: deepImportRules(DEEP_IMPORTS.root) },
  // Prisma's types stay in the data layer: repositories and db/ use them, every other file sees
  // the repositories' row types (tests may arrange rows through the client). ESLint replaces a
  // rule's options rather than adding to them, so these files list the face pattern again.
  ...FEATURE_DEPTHS.map((depth) => ({
    files: filesAtDepth(depth),
    ignores: DATA_LAYER,
    rules: restrictedImports(facePattern(featureImport(depth)), PRISMA_OUTSIDE_DATA),
  })),
  {
    files: ['apps/*/src/*.ts'],
    ignores: DATA_LAYER,
    rules: restrictedImports(facePattern(DEEP_IMPORTS.root), PRISMA_OUTSIDE_DATA),
  },
  { files: ['apps/*/test/**/*.ts'], rules: deepImportRules(DEEP_IMPORTS.test) },
  {
    // Libraries stay independent of any service's generated Prisma client.
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: PRISMA_CLIENT,
              message: 'libs never import Prisma clients',
            },
          ],
        },
      ],
    },
  },
];
