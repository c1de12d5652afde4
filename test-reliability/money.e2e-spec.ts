import { DataSource } from 'typeorm';
import { createKey, signup } from '../test/support/accounts';
import { makePdf } from '../test/support/fixtures';
import { upload } from '../test/support/jobs';
import { privateStack } from '../test/support/private-stack';
import { grant, serve } from './support/api';
import { inParallel } from './support/concurrency';
import { deleteRedisKeys } from './support/redis-keys';
import { formatHistogram, histogram, ms, percentile, printFigures } from './support/figures';

const JOBS = 200;
const AFFORDABLE = 100;
/** A one-page PDF read with the premium model. */
const PAGE_PRICE = 30;

interface ConfirmOutcome {
  jobId: string;
  status: number;
  code: string | undefined;
  problemJson: boolean;
  remaining: number | undefined;
  ms: number;
}

/**
 * Confirms race for one balance: the ledger must let exactly as many through as the balance
 * pays for, refuse the rest with 402, never go below zero, and account for every point moved.
 */
describe('money under concurrent confirms', () => {
  // No worker runs on this stack: confirmed jobs stay queued, so only the confirms move money.
  const { stack } = privateStack('money');
  afterAll(() => deleteRedisKeys(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!));

  it(`${JOBS} concurrent confirms on credit for ${AFFORDABLE}: ${AFFORDABLE} pass, the rest get 402, the ledger adds up`, async () => {
    const { t } = stack;
    await serve(t);
    const db = t.app.get(DataSource);
    const payer = await signup(t.http, 'payer');
    const key = await createKey(t.http, payer, { rate_limit_rpm: 100_000 });
    await grant(t, payer.userId, AFFORDABLE * PAGE_PRICE);

    const pdf = await makePdf(['A one-page report, read with the premium model.']);
    const jobIds = await inParallel(Array.from({ length: JOBS }), 8, async () => {
      const preview = await upload(t.http, key.key, [{ name: 'one-page.pdf', content: pdf }], { ocr_model: 'premium' });
      expect(preview.status).toBe(201);
      expect(preview.body.cost).toMatchObject({ pages: 1, free_pages_used: 0, points: PAGE_PRICE });
      return preview.body.job_id as string;
    });
    const before = await balanceOf(db, payer.userId);
    expect(before).toBe(AFFORDABLE * PAGE_PRICE);

    const started = Date.now();
    const outcomes = await Promise.all(jobIds.map((jobId) => confirm(jobId)));
    const wallMs = Date.now() - started;
    const after = await balanceOf(db, payer.userId);

    const passed = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status === 402);
    printFigures(`Money: ${JOBS} concurrent confirms, balance for ${AFFORDABLE} (${before} points)`, [
      ['statuses', formatHistogram(histogram(outcomes.map((o) => o.status)))],
      ['confirmed (200)', passed.length],
      ['refused (402 insufficient_credits)', refused.length],
      ['balance before → after', `${before} → ${after}`],
      ['all confirms, wall time', ms(wallMs)],
      ['confirms per second', Math.round((JOBS / wallMs) * 1000)],
      ['200 latency p50 / p95 / max', latencies(passed)],
      ['402 latency p50 / p95 / max', latencies(refused)],
    ]);

    // Only the two answers the ledger gives: a busy moment is no reason for a 5xx.
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 402)).toEqual([]);
    expect(passed).toHaveLength(AFFORDABLE);
    expect(refused).toHaveLength(JOBS - AFFORDABLE);
    for (const o of refused) expect(o).toMatchObject({ code: 'insufficient_credits', problemJson: true });
    // Each success saw its own balance: the charges were applied one after another.
    expect(new Set(passed.map((o) => o.remaining)).size).toBe(AFFORDABLE);
    expect(Math.min(...passed.map((o) => o.remaining!))).toBe(0);

    // The balance never went below zero: the end state, every balance the ledger recorded, and the rule in the schema.
    expect(after).toBe(0);
    const [{ lowest }] = await db.query<{ lowest: string }[]>(
      'SELECT min(balance_after) AS lowest FROM credit_transactions WHERE user_id = $1',
      [payer.userId],
    );
    expect(Number(lowest)).toBe(0);
    await expect(
      db.query('UPDATE users SET points_balance = points_balance - 1 WHERE id = $1', [payer.userId]),
    ).rejects.toThrow(/users_points_balance_non_negative/);

    // Every point moved is a ledger row: one spend per confirmed job, none for a refused one.
    const spends = await db.query<{ job_id: string; amount: string }[]>(
      `SELECT job_id, amount FROM credit_transactions WHERE user_id = $1 AND type = 'spend'`,
      [payer.userId],
    );
    expect(spends.map((s) => s.job_id).sort()).toEqual(passed.map((o) => o.jobId).sort());
    expect(spends.every((s) => Number(s.amount) === -PAGE_PRICE)).toBe(true);
    const [{ total }] = await db.query<{ total: string }[]>(
      `SELECT sum(amount) AS total FROM credit_transactions WHERE user_id = $1 AND type = 'spend'`,
      [payer.userId],
    );
    expect(Number(total)).toBe(after - before);
    const [{ all }] = await db.query<{ all: string }[]>(
      'SELECT sum(amount) AS all FROM credit_transactions WHERE user_id = $1',
      [payer.userId],
    );
    expect(Number(all)).toBe(after);

    // Jobs agree with the ledger: the confirmed are queued at their price, the refused still pending and free.
    const states = await db.query<{ status: string; n: number; cost: string }[]>(
      'SELECT status, count(*)::int AS n, sum(cost_points) AS cost FROM jobs WHERE user_id = $1 GROUP BY status',
      [payer.userId],
    );
    expect(Object.fromEntries(states.map((s) => [s.status, [s.n, Number(s.cost)]]))).toEqual({
      queued: [AFFORDABLE, AFFORDABLE * PAGE_PRICE],
      pending: [JOBS - AFFORDABLE, 0],
    });

    async function confirm(jobId: string): Promise<ConfirmOutcome> {
      const sent = Date.now();
      const res = await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key);
      return {
        jobId,
        status: res.status,
        code: res.body.code,
        problemJson: /^application\/problem\+json/.test(res.headers['content-type'] ?? ''),
        remaining: res.body.remaining_points,
        ms: Date.now() - sent,
      };
    }
  });

  it(`${AFFORDABLE} jobs, each confirmed and cancelled at once (${2 * AFFORDABLE} requests): no double refund, the balance never below zero`, async () => {
    const { t } = stack;
    const db = t.app.get(DataSource);
    const payer = await signup(t.http, 'canceller');
    const key = await createKey(t.http, payer, { rate_limit_rpm: 100_000 });
    // Credit for half of the jobs: some confirms are refused, some refunded, some find the job cancelled.
    const funds = (AFFORDABLE / 2) * PAGE_PRICE;
    await grant(t, payer.userId, funds);
    const pdf = await makePdf(['A one-page report, confirmed and cancelled at once.']);
    const jobIds = await inParallel(Array.from({ length: AFFORDABLE }), 8, async () => {
      const preview = await upload(t.http, key.key, [{ name: 'race.pdf', content: pdf }], { ocr_model: 'premium' });
      expect(preview.status).toBe(201);
      return preview.body.job_id as string;
    });

    const started = Date.now();
    const answers = await Promise.all(
      jobIds.flatMap((jobId) => [
        t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key),
        t.http.post(`/api/v1/jobs/${jobId}/cancel`).set('X-API-Key', key.key),
      ]),
    );
    const wallMs = Date.now() - started;
    const confirms = answers.filter((_, i) => i % 2 === 0).map((r) => r.status);
    const cancels = answers.filter((_, i) => i % 2 === 1).map((r) => r.status);
    const after = await balanceOf(db, payer.userId);
    const rows = await db.query<{ job_id: string; type: string; amount: string; balance_after: string }[]>(
      `SELECT job_id, type, amount, balance_after FROM credit_transactions WHERE user_id = $1 AND job_id IS NOT NULL`,
      [payer.userId],
    );
    const spends = rows.filter((r) => r.type === 'spend');
    const refunds = rows.filter((r) => r.type === 'refund');
    const states = await db.query<{ status: string; n: number }[]>(
      'SELECT status, count(*)::int AS n FROM jobs WHERE user_id = $1 GROUP BY status',
      [payer.userId],
    );
    printFigures(`Money: ${AFFORDABLE} jobs confirmed and cancelled at once, balance for ${AFFORDABLE / 2}`, [
      ['confirm statuses', formatHistogram(histogram(confirms))],
      ['cancel statuses', formatHistogram(histogram(cancels))],
      ['jobs by final status', formatHistogram(Object.fromEntries(states.map((s) => [s.status, s.n])))],
      ['spends / refunds', `${spends.length} / ${refunds.length}`],
      ['balance before → after', `${funds} → ${after}`],
      ['all requests, wall time', ms(wallMs)],
    ]);

    // Every answer is one a client can act on; every cancel wins (a pending or queued job can always be cancelled).
    expect(confirms.filter((s) => ![200, 400, 402].includes(s))).toEqual([]);
    expect(cancels.filter((s) => s !== 200)).toEqual([]);
    expect(states).toEqual([{ status: 'cancelled', n: AFFORDABLE }]);
    // Each charged job is refunded exactly once; nothing else moves; the balance comes back whole.
    const refundedJobs = refunds.map((r) => r.job_id);
    expect(new Set(refundedJobs).size).toBe(refundedJobs.length);
    expect(refundedJobs.sort()).toEqual(spends.map((r) => r.job_id).sort());
    expect(after).toBe(funds);
    expect(Math.min(...rows.map((r) => Number(r.balance_after)))).toBeGreaterThanOrEqual(0);
  });
});

async function balanceOf(db: DataSource, userId: string): Promise<number> {
  const [row] = await db.query<{ points_balance: string }[]>('SELECT points_balance FROM users WHERE id = $1', [
    userId,
  ]);
  return Number(row.points_balance);
}

function latencies(outcomes: ConfirmOutcome[]): string {
  const values = outcomes.map((o) => o.ms);
  return [0.5, 0.95, 1].map((p) => ms(percentile(values, p))).join(' / ');
}
