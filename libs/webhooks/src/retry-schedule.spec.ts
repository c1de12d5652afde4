import { MAX_RETRY_DELAY_MS, nextAttemptAt, retryDelayMs, RETRY_WINDOW_MS } from './retry-schedule';

describe('retry schedule', () => {
  it('waits 10 s, 30 s, 1.5 min… after each failure, at most an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000))).toEqual([10_000, 30_000, 90_000, 270_000]);
    expect(retryDelayMs(8, 10_000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(500, 10_000)).toBe(MAX_RETRY_DELAY_MS);
    expect([1, 2].map((n) => retryDelayMs(n, 200))).toEqual([200, 600]);
  });

  it('schedules the next attempt from now, and gives up past 24 hours after the event', () => {
    const eventAt = new Date('2026-11-22T08:00:00Z');
    const now = new Date(eventAt.getTime() + 5_000);
    expect(nextAttemptAt(eventAt, 1, 10_000, now)).toEqual(new Date(now.getTime() + 10_000));
    const late = new Date(eventAt.getTime() + RETRY_WINDOW_MS - 30 * 60_000);
    expect(nextAttemptAt(eventAt, 12, 10_000, late)).toBeNull();
    expect(nextAttemptAt(eventAt, 2, 10_000, late)).toEqual(new Date(late.getTime() + 30_000));
  });

  it('keeps trying for the whole day with the default base', () => {
    const eventAt = new Date(0);
    let now = eventAt;
    let attempts = 1;
    for (
      let next = nextAttemptAt(eventAt, attempts, 10_000, now);
      next;
      next = nextAttemptAt(eventAt, attempts, 10_000, now)
    ) {
      now = next;
      attempts += 1;
    }
    expect(now.getTime()).toBeGreaterThan(RETRY_WINDOW_MS - MAX_RETRY_DELAY_MS);
    expect(attempts).toBeGreaterThan(25);
  });
});
