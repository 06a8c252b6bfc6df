import nx from '@nx/eslint-plugin';

const TEST_FILES = [
  '**/*.test.ts',
  '**/test/**/*.ts',
  'libs/testing/**/*.ts',
  'libs/db/src/testing/**/*.ts',
];

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
  {
    // Libraries stay independent of any service's generated Prisma client.
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@prisma/client', '**/generated/prisma/**'],
              message: 'libs never import Prisma clients',
            },
          ],
        },
      ],
    },
  },
];
