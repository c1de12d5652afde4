import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The sources the build compiles into what the stack runs (not tests, specs or fixture builders). */
const SOURCE_ROOTS = ['apps/api/src', 'apps/worker/src', 'apps/admin/src', 'libs', 'tools'];
const NOT_BUILT = /(\.spec\.ts|\.e2e-spec\.ts|\.d\.ts)$|\/testing\//;

/** Written by `npm run build:server` when it has compiled everything (the compiler itself rewrites only what changed). */
export const BUILD_STAMP = 'dist/.build-stamp';

/** The newest source file that changed after the last build, or null when the build is current. */
export function staleSource(repoRoot: string): string | null {
  let built: number;
  try {
    built = statSync(join(repoRoot, BUILD_STAMP)).mtimeMs;
  } catch {
    return 'the sources (there is no complete build in dist/)';
  }
  let newest: { path: string; mtime: number } | null = null;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') visit(path);
      } else if (entry.name.endsWith('.ts') && !NOT_BUILT.test(path)) {
        const mtime = statSync(path).mtimeMs;
        if (mtime > built && (!newest || mtime > newest.mtime)) newest = { path, mtime };
      }
    }
  };
  for (const root of SOURCE_ROOTS) visit(join(repoRoot, root));
  const found = newest as { path: string; mtime: number } | null;
  return found ? relative(repoRoot, found.path) : null;
}
