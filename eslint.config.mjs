import nx from '@nx/eslint-plugin';

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
      // libs (the migration runner) and only read the apps' files.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:deploy', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tools', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
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
