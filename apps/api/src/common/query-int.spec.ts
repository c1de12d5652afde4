import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { QueryInt } from './query-int';

class Bounded {
  @QueryInt({ min: 1, max: 100, default: 20 })
  limit: number = 20;
}

class FromOne {
  @QueryInt({ min: 1, default: 1 })
  file: number = 1;
}

function messages<T extends object>(type: new () => T, query: Record<string, string>): string[] {
  return validateSync(plainToInstance(type, query)).flatMap((error) => Object.values(error.constraints ?? {}));
}

describe('QueryInt', () => {
  it('reads a whole number in range from the query string, and keeps the default when it is absent', () => {
    expect(plainToInstance(Bounded, { limit: '5' }).limit).toBe(5);
    expect(messages(Bounded, { limit: '100' })).toEqual([]);
    expect(plainToInstance(Bounded, {}).limit).toBe(20);
    expect(messages(Bounded, {})).toEqual([]);
  });

  it('refuses a number out of range, or not whole, naming the range whichever check fails', () => {
    for (const limit of ['0', '101', '2.5', 'abc']) {
      const found = messages(Bounded, { limit });
      expect(found.length).toBeGreaterThan(0);
      expect(new Set(found)).toEqual(new Set(['must be a whole number from 1 to 100']));
    }
  });

  it('without a maximum, only the minimum bounds it', () => {
    expect(messages(FromOne, { file: '100000' })).toEqual([]);
    expect(messages(FromOne, { file: '0' })).toEqual(['must be a whole number from 1']);
  });
});
