import { SerialByKey } from './serial-by-key';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SerialByKey', () => {
  it('runs the tasks of one key one at a time, in order, and different keys at once', async () => {
    const serial = new SerialByKey();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      serial.run('a', task('a1')),
      serial.run('a', task('a2')),
      serial.run('b', task('b1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    // b1 did not wait for a's tasks.
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('goes on after a failed task, hands its error to its caller only, and forgets idle keys', async () => {
    const serial = new SerialByKey();
    const failed = serial.run('a', async () => {
      await tick();
      throw new Error('no credit');
    });
    const next = serial.run('a', async () => 'ran');
    await expect(failed).rejects.toThrow('no credit');
    await expect(next).resolves.toBe('ran');
    await tick();
    expect(serial.busyKeys).toBe(0);
  });
});
