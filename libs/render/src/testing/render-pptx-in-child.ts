import type { Document } from '@docconv/model';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface DeckRequest {
  document: Document;
  title: string;
  /** Pictures by link target, as base64 (the request travels to the child as JSON). */
  images?: Record<string, string>;
}

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const RENDERER = join(__dirname, '..', 'render-pptx.ts');

/**
 * Runs in the child (its working directory the repository): compiles our TypeScript on load with @swc/core
 * (the compiler Jest uses here), resolves the \`@docconv/*\` aliases as tsconfig.json maps them, renders
 * every requested deck (with its pictures, if any) and prints them as a JSON array of base64 strings.
 */
const CHILD_SCRIPT = `
const { transformSync } = require('@swc/core');
const { readFileSync } = require('node:fs');
require.extensions['.ts'] = (module, filename) => {
  const options = { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } };
  module._compile(transformSync(readFileSync(filename, 'utf8'), options).code, filename);
};
require('tsconfig-paths').register({ baseUrl: process.cwd(), paths: require('./tsconfig.json').compilerOptions.paths });
const { renderPptx } = require(process.argv[1]);
const requests = JSON.parse(readFileSync(0, 'utf8'));
const imagesOf = (request) =>
  request.images && new Map(Object.entries(request.images).map(([src, base64]) => [src, Buffer.from(base64, 'base64')]));
Promise.all(requests.map((request) => renderPptx(request.document, { title: request.title, images: imagesOf(request) })))
  .then((decks) => process.stdout.write(JSON.stringify(decks.map((deck) => deck.toString('base64')))))
  .catch((error) => { console.error(error); process.exit(1); });
`;

/**
 * Renders decks with `renderPptx` in a separate Node process. pptxgenjs loads Node built-ins with a dynamic
 * `import()` while writing, which Jest's module sandbox refuses, so — as test/support/fixtures.ts does for
 * its PPTX fixtures — the work happens in a child. All decks go to one child to pay its start-up once.
 */
export function renderPptxInChild(requests: DeckRequest[]): Buffer[] {
  const output = execFileSync(process.execPath, ['-e', CHILD_SCRIPT, RENDERER], {
    cwd: REPO_ROOT,
    input: JSON.stringify(requests),
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return (JSON.parse(output.toString('utf8')) as string[]).map((base64) => Buffer.from(base64, 'base64'));
}
