/**
 * Runs tasks of one key one after another, in the order they were given; tasks of different
 * keys run at once. A task that fails does not stop the ones after it.
 */
export class SerialByKey {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting. */
  get busyKeys(): number {
    return this.tails.size;
  }
}
