import { assertStoragePath } from './storage.port';

describe('assertStoragePath', () => {
  it.each(['inputs/job/1-a.pdf', 'results/job/result.md', 'health/probe'])('accepts %s', (path) => {
    expect(assertStoragePath(path)).toBe(path);
  });

  it.each([
    '',
    '/etc/passwd',
    'inputs/../../etc/passwd',
    'results/./x',
    'other/x',
    'inputs',
    'inputs//x',
    'inputs\\x',
    'inputs/a\0b',
  ])('refuses %j', (path) => {
    expect(() => assertStoragePath(path)).toThrow(/Refusing storage path/);
  });
});
