import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The sources the server build compiles into what the stack runs (not tests, specs or fixture builders). */
const SERVER_ROOTS = ['apps/api/src', 'apps/worker/src', 'apps/admin/src', 'libs', 'tools'];
const NOT_BUILT = /(\.spec\.ts|\.e2e-spec\.ts|\.d\.ts)$|\/testing\//;
/**
 * What else `npm run build` reads: the SDK, the web console (every file of it: HTML, styles,
 * its Vite config), the benchmarks, the dependencies and the compiler settings.
 */
const OTHER_ROOTS = ['bench', 'clients/typescript/src', 'apps/console'];
const OTHER_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'clients/typescript/package.json',
  'clients/typescript/tsconfig.json',
];

/** Written by `npm run build:server` when it has compiled everything (the compiler itself rewrites only what changed). */
export const BUILD_STAMP = 'dist/.build-stamp';
/** Written by `npm run build` once the server, the SDK and the console are all built. */
export const COMPLETE_BUILD_STAMP = 'dist/.build-complete-stamp';

/**
 * The newest source file that changed after the last build, or null when the build is current.
 * `server`: what the API, the worker and the tools run (what `npm start` and `npm test` refuse
 * to run stale); `complete`: everything `npm run build` builds (what `scripts/setup.sh` rebuilds).
 */
export function staleSource(repoRoot: string, scope: 'server' | 'complete' = 'server'): string | null {
  let built: number;
  try {
    built = statSync(join(repoRoot, scope === 'server' ? BUILD_STAMP : COMPLETE_BUILD_STAMP)).mtimeMs;
  } catch {
    return 'the sources (there is no complete build in dist/)';
  }
  let newest: { path: string; mtime: number } | null = null;
  const consider = (path: string): void => {
    const mtime = statSync(path).mtimeMs;
    if (mtime > built && (!newest || mtime > newest.mtime)) newest = { path, mtime };
  };
  const visit = (dir: string, counts: (path: string) => boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') visit(path, counts);
      } else if (counts(path)) consider(path);
    }
  };
  const serverSource = (path: string): boolean => path.endsWith('.ts') && !NOT_BUILT.test(path);
  for (const root of SERVER_ROOTS) visit(join(repoRoot, root), serverSource);
  if (scope === 'complete') {
    for (const root of OTHER_ROOTS) visit(join(repoRoot, root), (path) => !/\.(spec|e2e-spec)\.ts$/.test(path));
    for (const file of OTHER_FILES) consider(join(repoRoot, file));
  }
  const found = newest as { path: string; mtime: number } | null;
  return found ? relative(repoRoot, found.path) : null;
}

/**
 * `node dist/tools/stack/build-freshness.js check`: prints `current` and exits 0 when the complete
 * build is current, prints the newer file and exits 1 when it is not (a build from before this
 * command existed prints nothing, and so counts as stale); `stamp`: records that the complete build just finished.
 */
if (require.main === module) {
  const repoRoot = resolve(__dirname, '..', '..', '..');
  const [command] = process.argv.slice(2);
  if (command === 'stamp') {
    writeFileSync(join(repoRoot, COMPLETE_BUILD_STAMP), new Date().toISOString());
  } else if (command === 'check') {
    const changed = staleSource(repoRoot, 'complete');
    process.stdout.write(changed ? `${changed}\n` : 'current\n');
    process.exitCode = changed ? 1 : 0;
  } else {
    process.stderr.write('usage: build-freshness check | stamp\n');
    process.exitCode = 2;
  }
}
