import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUILD_STAMP, COMPLETE_BUILD_STAMP, staleSource } from './build-freshness';

describe('staleSource', () => {
  let root: string;
  const write = (path: string, secondsAgo: number): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(join(root, path), when, when);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'docconv-freshness-'));
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) write(file, 100);
    for (const file of ['clients/typescript/package.json', 'clients/typescript/tsconfig.json']) write(file, 100);
    write('apps/api/src/main.ts', 100);
    for (const dir of [
      'apps/worker/src',
      'apps/admin/src',
      'libs',
      'tools',
      'bench',
      'clients/typescript/src',
      'apps/console',
    ]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    write(BUILD_STAMP, 50);
    write(COMPLETE_BUILD_STAMP, 50);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds nothing when every source is older than the build', () => {
    expect(staleSource(root, 'server')).toBeNull();
    expect(staleSource(root, 'complete')).toBeNull();
  });

  it('names a server source changed after the build, in both scopes', () => {
    write('libs/jobs/src/jobs.service.ts', 10);
    expect(staleSource(root, 'server')).toBe('libs/jobs/src/jobs.service.ts');
    expect(staleSource(root, 'complete')).toBe('libs/jobs/src/jobs.service.ts');
  });

  it('ignores specs', () => {
    write('libs/jobs/src/jobs.service.spec.ts', 10);
    expect(staleSource(root, 'complete')).toBeNull();
  });

  it('counts the console, the SDK, the lock file and the compiler settings only for the complete build', () => {
    for (const file of [
      'apps/console/src/styles.css',
      'clients/typescript/src/index.ts',
      'package-lock.json',
      'tsconfig.json',
    ]) {
      write(file, 10);
      expect(staleSource(root, 'server')).toBeNull();
      expect(staleSource(root, 'complete')).toBe(file);
      write(file, 100);
    }
  });

  it('reports a missing stamp as no complete build', () => {
    rmSync(join(root, COMPLETE_BUILD_STAMP));
    expect(staleSource(root, 'complete')).toMatch(/no complete build/);
  });
});
