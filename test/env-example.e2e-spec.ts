import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { REPO_ROOT } from '@docconv/testing';
import { Environment } from '../libs/config/src/environment';

describe('.env.example', () => {
  it('documents every variable the service reads, and no other', () => {
    const documented = readFileSync(join(REPO_ROOT, '.env.example'), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
      .map((line) => line.split('=')[0])
      .sort();
    const read = [
      ...new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(Environment, '', true, false)
          .map((m) => m.propertyName),
      ),
    ].sort();
    expect(documented).toEqual(read);
  });
});
