import { cloneKey, unreachableFolder } from './postgres-location';

describe('unreachableFolder', () => {
  const modes =
    (closed: string[]) =>
    (folder: string): number =>
      closed.includes(folder) ? 0o40700 : 0o40755;

  it('finds nothing when every folder on the way can be entered by other users', () => {
    expect(unreachableFolder('/work/docconv/.data', modes([]))).toBeNull();
  });

  it('names the first folder on the way that other users cannot enter', () => {
    expect(unreachableFolder('/root/docconv-fresh/.data', modes(['/root']))).toBe('/root');
    expect(unreachableFolder('/home/ann/src/docconv', modes(['/home/ann/src', '/home/ann/src/docconv']))).toBe(
      '/home/ann/src',
    );
  });

  it('counts the folder itself', () => {
    expect(unreachableFolder('/srv/docconv', modes(['/srv/docconv']))).toBe('/srv/docconv');
  });
});

describe('cloneKey', () => {
  it('is the folder name and a short hash of the whole path, so two clones of the same name differ', () => {
    expect(cloneKey('/root/docconv')).toMatch(/^docconv-[0-9a-f]{8}$/);
    expect(cloneKey('/root/docconv')).toBe(cloneKey('/root/docconv/'));
    expect(cloneKey('/root/docconv')).not.toBe(cloneKey('/home/ann/docconv'));
  });
});
