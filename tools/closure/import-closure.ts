import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The modules a process loads from one entry: our own source files and the packages they pull in. */
export interface ImportClosure {
  /** Our TypeScript files, relative to the repository root, sorted. */
  files: string[];
  /** Their lines, all counted. */
  lines: number;
  /** The npm packages they load (by package name), sorted. */
  packages: string[];
}

/**
 * What a process loads when it starts from `entries` (paths relative to `root`): every file
 * reachable by the imports that survive compilation (an import only of types is erased, as tsc
 * erases it; decorator metadata keeps the classes it names), by `export ... from`, by
 * `require` and dynamic `import()`, and by the worker-thread entries a module starts with
 * `compiledThreadEntry(__dirname, 'x.js')` (those threads run in the same process). Modules
 * resolve as tsc resolves them, with the tsconfig's path aliases.
 */
export function importClosure(root: string, entries: string[], tsconfig = 'tsconfig.json'): ImportClosure {
  const options = compilerOptions(resolve(root, tsconfig));
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const seen = new Set<string>();
  const packages = new Set<string>();
  let lines = 0;
  const pending = entries.map((entry) => resolve(root, entry));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    lines += lineCount(source);
    for (const specifier of runtimeImports(source, file, options)) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule;
      if (!resolved) continue; // a Node built-in
      if (resolved.isExternalLibraryImport) packages.add(packageName(specifier));
      else if (!resolved.resolvedFileName.endsWith('.d.ts')) pending.push(resolve(resolved.resolvedFileName));
    }
    for (const thread of threadEntries(source, file)) pending.push(thread);
  }
  return {
    files: [...seen].map((file) => relative(root, file)).sort(),
    lines,
    packages: [...packages].sort(),
  };
}

/** The files of `closure` under any of `folders` (relative to the root, e.g. `libs/ocr/`). */
export function filesUnder(closure: ImportClosure, folders: readonly string[]): string[] {
  return closure.files.filter((file) => folders.some((folder) => file.startsWith(folder)));
}

function compilerOptions(path: string): ts.CompilerOptions {
  const read = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const config = read.config as Record<string, unknown>;
  const parsed = ts.parseJsonConfigFileContent({ ...config, include: [], files: [] }, ts.sys, dirname(path));
  return parsed.options;
}

/** The module names a file loads once compiled: tsc's own output, read for `require` calls. */
function runtimeImports(source: string, file: string, options: ts.CompilerOptions): string[] {
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: { ...options, module: ts.ModuleKind.CommonJS, sourceMap: false, declaration: false },
  });
  return ts.preProcessFile(outputText, true, true).importedFiles.map((imported) => imported.fileName);
}

/** Sibling TypeScript sources of the thread entries a module starts. */
function threadEntries(source: string, file: string): string[] {
  const entries = [...source.matchAll(/compiledThreadEntry\(\s*__dirname\s*,\s*'([^']+)\.js'\s*\)/g)];
  return entries.map((match) => join(dirname(file), `${match[1]}.ts`)).filter((entry) => existsSync(entry));
}

/** Lines as `wc -l` counts them, plus a last one without its newline. */
function lineCount(source: string): number {
  const newlines = source.match(/\n/g)?.length ?? 0;
  return source === '' || source.endsWith('\n') ? newlines : newlines + 1;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
