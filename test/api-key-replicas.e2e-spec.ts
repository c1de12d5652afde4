import { spawnApi, stopProcess, type ApiProcess } from '@docconv/testing';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { uniqueEmail } from './support/test-app';

/** One API request with `headers`, its status and headers (the body when it is JSON). */
async function call(
  api: ApiProcess,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * Two API processes of the build on the same PostgreSQL and Redis, as two replicas behind a load
 * balancer: each keeps API keys in memory for a few seconds, and a change made through one is
 * refused or applied by the other on the very next request, with no wait for anything to expire.
 */
describe('API keys across two API processes', () => {
  // A Redis prefix of their own, so that the change channel has exactly these two subscribers.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}-replicas-${randomBytes(3).toString('hex')}`,
  };
  const channel = `${env.REDIS_PREFIX}:api-keys:changed`;
  let a: ApiProcess;
  let b: ApiProcess;
  let db: Client;
  let jwt: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([spawnApi(env, 'api-replica-a'), spawnApi(env, 'api-replica-b')]);
    // Both processes keep keys only once their subscription to changes is confirmed: wait for it.
    const redis = new Redis(env.REDIS_URL!);
    try {
      for (;;) {
        const [, subscribers] = (await redis.pubsub('NUMSUB', channel)) as [string, number];
        if (subscribers >= 2) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      redis.disconnect();
    }
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const signup = await call(
      a,
      'POST',
      '/api/v1/auth/signup',
      {},
      { email: uniqueEmail('replicas'), password: 'correct horse battery' },
    );
    expect(signup.status).toBe(201);
    jwt = signup.body.access_token as string;
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    await Promise.all([a, b].filter(Boolean).map((api) => stopProcess(api.child)));
  });

  const session = () => ({ Authorization: `Bearer ${jwt}` });
  const withKey = (secret: string) => ({ 'X-API-Key': secret });

  async function newKey(rateLimitRpm: number): Promise<{ id: string; secret: string }> {
    const created = await call(a, 'POST', '/api/v1/keys', session(), { rate_limit_rpm: rateLimitRpm });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, secret: created.body.key as string };
  }

  /**
   * Uses the key through both processes, then shows that B answers from memory: a limit changed
   * in the database behind the API's back (no announcement) is not seen by B's next request.
   * Tried again with a fresh change if B's entry happened to expire in between, so a slow
   * machine cannot fail it; a B that never keeps keys fails every try.
   */
  async function cachedOnBoth(key: { id: string; secret: string }, rpm: number): Promise<void> {
    expect((await call(a, 'GET', '/api/v1/account', withKey(key.secret))).status).toBe(200);
    for (let attempt = 1; ; attempt++) {
      const warm = await call(b, 'GET', '/api/v1/account', withKey(key.secret));
      expect(warm.status).toBe(200);
      const seen = warm.headers.get('ratelimit-limit');
      await db.query('UPDATE api_keys SET rate_limit_rpm = $1 WHERE id = $2', [rpm + attempt, key.id]);
      const next = await call(b, 'GET', '/api/v1/account', withKey(key.secret));
      if (next.headers.get('ratelimit-limit') === seen) return;
      if (attempt === 3)
        throw new Error(
          `B read the key from the database on every request (limit ${seen} → ${next.headers.get('ratelimit-limit')})`,
        );
    }
  }

  it('a key rotated through A is refused by B on the very next request; its successor works on B', async () => {
    const key = await newKey(1_000);
    await cachedOnBoth(key, 1_000);

    const rotated = await call(a, 'POST', `/api/v1/keys/${key.id}/rotate`, session());
    expect(rotated.status).toBe(201);
    const old = await call(b, 'GET', '/api/v1/account', withKey(key.secret));
    expect({ status: old.status, code: old.body.code }).toEqual({ status: 401, code: 'unauthorized' });
    expect((await call(a, 'GET', '/api/v1/account', withKey(key.secret))).status).toBe(401);
    expect((await call(b, 'GET', '/api/v1/account', withKey(rotated.body.key as string))).status).toBe(200);
  });

  it('a key deactivated through A is refused by B on the very next request', async () => {
    const key = await newKey(1_000);
    await cachedOnBoth(key, 1_000);

    expect((await call(a, 'DELETE', `/api/v1/keys/${key.id}`, session())).status).toBe(200);
    const refused = await call(b, 'GET', '/api/v1/account', withKey(key.secret));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 'unauthorized' });
  });

  it('new scopes and a new rate limit set through A apply on B from the very next request', async () => {
    const key = await newKey(1_000);
    await cachedOnBoth(key, 1_000);

    const patched = await call(a, 'PATCH', `/api/v1/keys/${key.id}`, session(), {
      rate_limit_rpm: 42,
      scopes: ['jobs:write'],
    });
    expect(patched.status).toBe(200);
    const forbidden = await call(b, 'GET', '/api/v1/jobs', withKey(key.secret));
    expect({ status: forbidden.status, code: forbidden.body.code }).toEqual({ status: 403, code: 'forbidden' });
    const account = await call(b, 'GET', '/api/v1/account', withKey(key.secret));
    expect(account.status).toBe(200);
    expect(account.headers.get('ratelimit-limit')).toBe('42');
  });
});
