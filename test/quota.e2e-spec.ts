import { LedgerService } from '@docconv/billing';
import type { DomainError } from '@docconv/contracts';
import { DataSource } from 'typeorm';
import { createKey, signup } from './support/accounts';
import { createTestApp, type TestApp } from './support/test-app';

describe('daily quota per key', () => {
  let t: TestApp;
  let ledger: LedgerService;
  beforeAll(async () => {
    t = await createTestApp();
    ledger = t.app.get(LedgerService);
  });
  afterAll(() => t.close());

  async function fundedKey(quota: number | null, points = 10_000) {
    const user = await signup(t.http, 'quota');
    const key = await createKey(t.http, user, { daily_quota: quota });
    await ledger.post({
      userId: user.userId,
      type: 'grant',
      points,
      description: 'seed',
      idempotencyKey: `seed:${user.userId}`,
    });
    return { user, key };
  }

  const spend = (userId: string, apiKeyId: string, points: number, n: string) =>
    ledger.post({ userId, apiKeyId, type: 'spend', points, description: 'test', idempotencyKey: `q:${apiKeyId}:${n}` });

  it('refuses the spend that would pass the quota, with Retry-After until UTC midnight, charging nothing', async () => {
    const { user, key } = await fundedKey(100);
    await spend(user.userId, key.id, 60, 'a');
    const refused = await spend(user.userId, key.id, 50, 'b').catch((e: DomainError) => e);
    expect((refused as DomainError).code).toBe('daily_quota_exceeded');
    const midnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
    expect((refused as DomainError).retryAfterSeconds).toBeCloseTo((midnight - Date.now()) / 1000, -1);
    expect(await ledger.balanceOf(user.userId)).toBe(10_000 - 60);
    await spend(user.userId, key.id, 40, 'c'); // exactly up to the quota is fine

    const account = await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200);
    expect(account.body.api_key).toMatchObject({ daily_quota: 100, daily_spent_points: 100 });
    expect(account.body.today_usage.points_spent).toBe(100);
  });

  it('concurrent spends through one key never pass the quota', async () => {
    const { user, key } = await fundedKey(100);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => spend(user.userId, key.id, 20, `p${i}`)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect(await ledger.spentToday(key.id)).toBe(100);
    const [{ sum }] = await t.app
      .get(DataSource)
      .query<{ sum: number }[]>('SELECT sum(amount)::int AS sum FROM credit_transactions WHERE user_id = $1', [
        user.userId,
      ]);
    expect(sum).toBe(await ledger.balanceOf(user.userId));
  });

  it('a key without a quota, and other keys of the same user, are not limited by it', async () => {
    const { user, key } = await fundedKey(null);
    await spend(user.userId, key.id, 5_000, 'big');
    const limited = await createKey(t.http, user, { daily_quota: 10 });
    await spend(user.userId, limited.id, 10, 'small');
    expect(await ledger.balanceOf(user.userId)).toBe(10_000 - 5_010);

    // The account shows each key's own spend beside the user's whole day, and none for a session.
    const byLimited = await t.http.get('/api/v1/account').set('X-API-Key', limited.key).expect(200);
    expect(byLimited.body).toMatchObject({
      points_balance: 10_000 - 5_010,
      api_key: { id: limited.id, daily_quota: 10, daily_spent_points: 10 },
      today_usage: { points_spent: 5_010 },
    });
    const byFirst = await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200);
    expect(byFirst.body.api_key).toMatchObject({ id: key.id, daily_spent_points: 5_000 });
    const bySession = await t.http.get('/api/v1/account').set('Authorization', `Bearer ${user.jwt}`).expect(200);
    expect(bySession.body).toMatchObject({ api_key: null, today_usage: { points_spent: 5_010 } });
  });
});
