import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * Import boundaries. Apps never import other apps; libs never import apps or tests; the libs
 * only the worker runs (its conversion pipeline and the engines it alone drives) are never
 * imported by the API's side: the API, the admin CLI and the libs they load.
 */
const APPS = readdirSync(new URL('./apps', import.meta.url));
const LIBS = readdirSync(new URL('./libs', import.meta.url));
const WORKER_ONLY = ['pipeline', 'refine', 'transcription'];
const TESTS = ['**/test/**', '**/test-reliability/**', '**/test-evalset/**', '**/test-soak/**'];
const SPECS = ['**/*.spec.ts', '**/*.e2e-spec.ts'];
const workerOnly = {
  group: WORKER_ONLY.map((lib) => `@docconv/${lib}`),
  message: 'This library runs only in the worker: the API side must not load it.',
};
const boundaries = [
  ...APPS.map((app) => ({
    files: [`apps/${app}/**/*.ts`, `apps/${app}/**/*.tsx`],
    ignores: SPECS,
    patterns: [
      {
        group: APPS.filter((other) => other !== app).flatMap((other) => [`**/apps/${other}/**`, `**/${other}/src/**`]),
        message: 'Apps never import other apps: move what they share into a library.',
      },
      ...(app === 'worker' ? [] : [workerOnly]),
    ],
  })),
  ...LIBS.map((lib) => ({
    files: [`libs/${lib}/**/*.ts`],
    ignores: [...SPECS, 'libs/*/src/**/testing/**'], // the builders of test fixtures are test code
    patterns: [
      { group: ['**/apps/**', ...TESTS], message: 'Libraries never import apps or tests.' },
      ...(WORKER_ONLY.includes(lib) ? [] : [workerOnly]),
    ],
  })),
].map(({ files, ignores, patterns }) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
}));

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'test-output/',
      '.data/',
      '.venv/',
      '.venv-engines/',
      '.schemathesis/',
      '*.js',
      '*.mjs',
      'clients/**/dist/',
      'clients/**/*.mjs',
      'apps/console/dist/',
      'apps/console/vite.config.mts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Preact event handlers may be async: each catches its own errors and shows them.
    files: ['apps/console/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  ...boundaries,
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'test-evalset/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
