import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '@docconv/testing';
import * as browserEntry from '../clients/typescript/src/browser';
import * as nodeEntry from '../clients/typescript/src';

const SRC = join(REPO_ROOT, 'clients', 'typescript', 'src');
const BROWSER_ENTRY = join(SRC, 'browser.ts');
/** Packages the browser entry may import: each has been checked to run in browsers. */
const BROWSER_PACKAGES = ['openapi-fetch'];

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isNodeModule = (specifier: string) =>
  specifier.startsWith('node:') || NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split('/')[0]);

/** The TypeScript file a relative import names: `x.ts`, `x.d.ts` or `x/index.ts`. */
function resolveSource(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const found = [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${relative(SRC, from)} imports ${specifier}, which is not a TypeScript file`);
  return found;
}

/**
 * Every module the file imports, transitively through our sources: static imports and
 * re-exports (type-only ones too), dynamic import() and require(), and `/// <reference types>`.
 */
function importGraph(entry: string): { files: string[]; edges: { file: string; specifier: string }[] } {
  const files: string[] = [];
  const edges: { file: string; specifier: string }[] = [];
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.includes(file)) continue;
    files.push(file);
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const specifiers = [
      ...info.importedFiles.map((f) => f.fileName),
      ...info.typeReferenceDirectives.map((d) => d.fileName),
      ...info.libReferenceDirectives.map((d) => `lib:${d.fileName}`),
    ];
    for (const specifier of specifiers) {
      edges.push({ file: relative(SRC, file), specifier });
      if (specifier.startsWith('.')) pending.push(resolveSource(file, specifier));
    }
  }
  return { files: files.map((f) => relative(SRC, f)).sort(), edges };
}

describe('the SDK browser entry', () => {
  const graph = importGraph(BROWSER_ENTRY);

  it('imports no Node module, directly or through any module it imports', () => {
    expect(graph.files).toContain('jobs.ts');
    expect(graph.files).toContain('events.ts');
    expect(graph.files).not.toContain('node-upload.ts');
    expect(graph.files.filter((f) => f === 'cli.ts' || f.startsWith('cli/'))).toEqual([]);
    expect(graph.edges.filter((e) => isNodeModule(e.specifier) || e.specifier === 'node')).toEqual([]);
    const packages = graph.edges.filter((e) => !e.specifier.startsWith('.')).map((e) => e.specifier);
    expect([...new Set(packages)].sort()).toEqual(BROWSER_PACKAGES);
  });

  it('the scan does see Node imports: the Node entry reads files through one', () => {
    const node = importGraph(join(SRC, 'index.ts'));
    expect(node.edges.filter((e) => isNodeModule(e.specifier)).map((e) => `${e.file} ${e.specifier}`)).toEqual([
      'node-upload.ts node:fs/promises',
      'node-upload.ts node:path',
    ]);
  });

  it("type-checks with the DOM's types and without Node's, as the console compiles it", () => {
    const program = ts.createProgram([BROWSER_ENTRY], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      skipLibCheck: true,
      isolatedModules: true,
      noEmit: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? relative(SRC, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(problems).toEqual([]);
    const nodeTypes = program.getSourceFiles().filter((f) => f.fileName.includes('/@types/node/'));
    expect(nodeTypes.map((f) => f.fileName)).toEqual([]);
  }, 60_000);

  it('offers every value the Node entry does', () => {
    expect(Object.keys(browserEntry).sort()).toEqual(Object.keys(nodeEntry).sort());
    expect(browserEntry.uploadFiles).not.toBe(nodeEntry.uploadFiles); // the Node one also reads paths
  });
});
