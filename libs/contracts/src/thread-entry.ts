import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository root, seen from a module under `libs/<lib>/src/` (sources) or `dist/libs/<lib>/src/` (a build). */
const FROM_LIB_SOURCES = ['..', '..', '..'];

/**
 * The compiled JavaScript of a worker-thread entry that sits beside `moduleDir`: the file itself
 * in a build, or its copy under `dist/` when the caller runs from its TypeScript sources (the
 * test suites run the API that way; the test command builds first).
 */
export function compiledThreadEntry(moduleDir: string, file: string): string {
  const beside = join(moduleDir, file);
  if (existsSync(beside)) return beside;
  const root = resolve(moduleDir, ...FROM_LIB_SOURCES);
  const built = join(root, 'dist', relative(root, moduleDir), file);
  if (existsSync(built)) return built;
  throw new Error(`the thread entry ${beside} is missing; build the project (npm run build)`);
}
