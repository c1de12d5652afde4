/** A delivery is retried for this long after its event; then it is given up. */
export const RETRY_WINDOW_MS = 24 * 3600_000;
/** No wait between two attempts is longer than this. */
export const MAX_RETRY_DELAY_MS = 3600_000;
/** Each wait is this many times the one before. */
const GROWTH = 3;

/** The wait after `failedAttempts` failures (from 1): base, 3×base, 9×base… at most an hour (10 s, 30 s, 1.5 min… by default). */
export function retryDelayMs(failedAttempts: number, baseMs: number): number {
  return Math.min(baseMs * GROWTH ** (failedAttempts - 1), MAX_RETRY_DELAY_MS);
}

/**
 * When to try again after `failedAttempts` failures of a delivery whose event happened at
 * `eventAt`, or null when that would fall outside the 24-hour window: the delivery is given up.
 */
export function nextAttemptAt(eventAt: Date, failedAttempts: number, baseMs: number, now: Date): Date | null {
  const next = new Date(now.getTime() + retryDelayMs(failedAttempts, baseMs));
  return next.getTime() - eventAt.getTime() > RETRY_WINDOW_MS ? null : next;
}
