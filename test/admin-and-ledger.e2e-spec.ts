import { spawnSync } from 'node:child_process';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@docconv/config';
import { TokensService, UsersService } from '@docconv/accounts';
import { LedgerService } from '@docconv/billing';
import { DomainError } from '@docconv/contracts';
import { distEntry } from '@docconv/testing';
import { DataSource } from 'typeorm';
import { AdminModule } from '../apps/admin/src/admin.module';
import { uniqueEmail } from './support/test-app';

function admin(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [distEntry('admin'), ...args], {
    env: process.env,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('admin CLI', () => {
  it('creates a user, grants points and issues a JWT for them', () => {
    const email = uniqueEmail('admin');
    const created = admin('create-user', '--email', email, '--password', 'correct horse battery');
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const user = JSON.parse(created.stdout) as { user_id: string; email: string };
    expect(user.email).toBe(email);

    const granted = admin('grant', '--email', email, '--points', '2500', '--description', 'welcome');
    expect(granted.status).toBe(0);
    expect(JSON.parse(granted.stdout)).toEqual({ user_id: user.user_id, granted: 2500, balance: 2500 });

    const jwt = admin('issue-jwt', '--email', email);
    expect(jwt.status).toBe(0);
    const tokens = new TokensService(loadConfig(process.env));
    expect(tokens.verifyAccess(jwt.stdout.trim())).toMatchObject({ userId: user.user_id });
  });

  it('explains bad input and exits non-zero', () => {
    const duplicate = uniqueEmail('dup');
    expect(admin('create-user', '--email', duplicate, '--password', 'long enough').status).toBe(0);
    const again = admin('create-user', '--email', duplicate, '--password', 'long enough');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
    const missing = admin('grant', '--email', uniqueEmail('nobody'), '--points', '5');
    expect(missing.stderr).toContain('No user has the email');
    const negative = admin('grant', '--email', duplicate, '--points=-5');
    expect(negative.stderr).toContain('--points must be a positive whole number');
  });
});

describe('ledger', () => {
  let app: INestApplicationContext;
  let ledger: LedgerService;
  let users: UsersService;
  let db: DataSource;

  beforeAll(async () => {
    app = await NestFactory.createApplicationContext(AdminModule.forRoot(loadConfig(process.env)), { logger: false });
    ledger = app.get(LedgerService);
    users = app.get(UsersService);
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  it('concurrent spends never take the balance below zero, and the rows add up to the balance', async () => {
    const user = await users.create(uniqueEmail('spender'), 'password123');
    await ledger.post({
      userId: user.id,
      type: 'grant',
      points: 100,
      description: 'seed',
      idempotencyKey: `seed:${user.id}`,
    });
    const attempts = Array.from({ length: 40 }, (_, i) =>
      ledger.post({
        userId: user.id,
        type: 'spend',
        points: 7,
        description: `spend ${i}`,
        idempotencyKey: `spend:${user.id}:${i}`,
      }),
    );
    const outcomes = await Promise.allSettled(attempts);
    const won = outcomes.filter((o) => o.status === 'fulfilled').length;
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(won).toBe(14); // floor(100 / 7)
    for (const r of refused) expect((r.reason as DomainError).code).toBe('insufficient_credits');

    const balance = await ledger.balanceOf(user.id);
    expect(balance).toBe(100 - 14 * 7);
    const [{ sum }] = await db.query<{ sum: number }[]>(
      'SELECT sum(amount)::int AS sum FROM credit_transactions WHERE user_id = $1',
      [user.id],
    );
    expect(sum).toBe(balance);
    const [{ min }] = await db.query<{ min: number }[]>(
      'SELECT min(balance_after)::int AS min FROM credit_transactions WHERE user_id = $1',
      [user.id],
    );
    expect(min).toBeGreaterThanOrEqual(0);
  });

  it('a repeated idempotency key is a no-op that returns the first outcome, even when concurrent', async () => {
    const user = await users.create(uniqueEmail('idem'), 'password123');
    const key = `grant:${user.id}:once`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        ledger.post({ userId: user.id, type: 'grant', points: 50, description: 'once', idempotencyKey: key }),
      ),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transaction.id)).size).toBe(1);
    expect(await ledger.balanceOf(user.id)).toBe(50);
  });

  it('the ledger is append-only in the database itself', async () => {
    const user = await users.create(uniqueEmail('append'), 'password123');
    const { transaction } = await ledger.post({
      userId: user.id,
      type: 'grant',
      points: 5,
      description: 'x',
      idempotencyKey: `a:${user.id}`,
    });
    await expect(
      db.query('UPDATE credit_transactions SET amount = 500 WHERE id = $1', [transaction.id]),
    ).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM credit_transactions WHERE id = $1', [transaction.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(db.query('UPDATE users SET points_balance = -1 WHERE id = $1', [user.id])).rejects.toThrow(
      /non_negative/,
    );
  });
});
