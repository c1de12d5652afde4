import js from '@eslint/js';
import { readdirSync, readFileSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * Import boundaries. Apps never import other apps; libs never import apps or tests; what only
 * the worker runs (its conversion pipeline, the engines it alone drives, the readers of
 * libs/documents: tools/closure/worker-only.json) is never loaded by the API's side: the API,
 * the admin CLI and the libs they load. Importing its types is allowed (they are erased).
 */
const APPS = readdirSync(new URL('./apps', import.meta.url));
const LIBS = readdirSync(new URL('./libs', import.meta.url));
const WORKER_ONLY = JSON.parse(readFileSync(new URL('./tools/closure/worker-only.json', import.meta.url), 'utf8'));
const TESTS = ['**/test/**', '**/test-reliability/**', '**/test-evalset/**', '**/test-soak/**'];
const SPECS = ['**/*.spec.ts', '**/*.e2e-spec.ts'];
const FIXTURE_BUILDERS = 'libs/*/src/**/testing/**'; // the builders of test fixtures are test code
/** Code written by a generator (each says which), not by hand. */
const GENERATED = ['libs/documents/src/hancom/private-use-table.ts'];
const workerOnly = {
  group: [...WORKER_ONLY.libs, ...WORKER_ONLY.entries].map((name) => `@docconv/${name}`),
  allowTypeImports: true,
  message: 'This runs only in the worker: the API side must not load it.',
};
/** libs/documents' readers, as its other files would import them (`./ocr/page-reader`, `../docx/extract-docx`). */
const READING = WORKER_ONLY.documents.map((path) => `libs/documents/src/${path.endsWith('/') ? `${path}**` : path}`);
const readers = {
  group: WORKER_ONLY.documents.map((path) => `**/${path.endsWith('/') ? `${path}*` : path.replace(/\.ts$/, '')}`),
  allowTypeImports: true,
  message: 'Intake (what the API loads of libs/documents) must not load a reader: see tools/closure/worker-only.json.',
};
const libraryRules = { group: ['**/apps/**', ...TESTS], message: 'Libraries never import apps or tests.' };
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
    ignores: [...SPECS, FIXTURE_BUILDERS, ...(lib === 'documents' ? READING : [])],
    patterns: [
      libraryRules,
      ...(WORKER_ONLY.libs.includes(lib) ? [] : [workerOnly]),
      ...(lib === 'documents' ? [readers] : []),
    ],
  })),
  // The readers of libs/documents are the worker's: they may load the OCR engines.
  { files: READING, ignores: [...SPECS, FIXTURE_BUILDERS], patterns: [libraryRules] },
].map(({ files, ignores, patterns }) => ({
  files,
  ignores,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
}));

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'test-output/',
      '.data/',
      '.venv',
      '.venv-engines',
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
    // A product file stays small enough to read whole; tests, fixture builders and generated tables aside.
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts', 'tools/**/*.ts', 'bench/**/*.ts'],
    ignores: [...SPECS, ...TESTS, FIXTURE_BUILDERS, ...GENERATED],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
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
