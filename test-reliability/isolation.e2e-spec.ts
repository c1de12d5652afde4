import { Storage } from '@docconv/storage';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey, type TestUser } from '../test/support/accounts';
import { pathOf, upload } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { convertMarkdown, grant, serve } from './support/api';
import { formatHistogram, histogram, printFigures } from './support/figures';
import { send, type Answer } from './support/request-load';

const JOB_ROUTE = '/api/v1/jobs/{job_id}';
/** Routes the brief of this suite names; each must be among those the API documents, so none is skipped silently. */
const NAMED_ROUTES = [
  `GET ${JOB_ROUTE}`,
  `PATCH ${JOB_ROUTE}/title`,
  `POST ${JOB_ROUTE}/confirm`,
  `POST ${JOB_ROUTE}/action`,
  `POST ${JOB_ROUTE}/cancel`,
  `GET ${JOB_ROUTE}/download`,
  `GET ${JOB_ROUTE}/pages`,
  `GET ${JOB_ROUTE}/events`,
  `POST ${JOB_ROUTE}/convert`,
  `POST ${JOB_ROUTE}/xlsx-advanced-action`,
];
/** A valid body for each route that takes one, so a refusal can only come from whose job it is. */
const BODIES: Record<string, unknown> = {
  [`PATCH ${JOB_ROUTE}/title`]: { title: 'Taken over' },
  [`POST ${JOB_ROUTE}/action`]: { action: 'refund' },
  [`POST ${JOB_ROUTE}/convert`]: { format: 'docx' },
  [`POST ${JOB_ROUTE}/xlsx-advanced-action`]: { action: 'refund' },
};
const ANSWER_LIMIT_MS = 5_000;

/** `METHOD /path` of every documented operation on one job, from the API's own OpenAPI document. */
async function jobRoutes(t: TestApp): Promise<string[]> {
  const document = (await t.http.get('/api/v1/openapi.json').expect(200)).body as { paths: Record<string, object> };
  return Object.entries(document.paths)
    .filter(([path]) => path === JOB_ROUTE || path.startsWith(`${JOB_ROUTE}/`))
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

/**
 * One user's jobs, keys and files are theirs alone: another user's key finds none of their
 * jobs on any job endpoint, a rotated key stops working at once, and a download link stops
 * working when it expires.
 */
describe('isolation between users, keys and links', () => {
  let t: TestApp;
  let baseUrl: string;
  let owner: TestUser;
  let ownerKey: TestKey;

  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await serve(t);
    owner = await signup(t.http, 'owner');
    ownerKey = await createKey(t.http, owner);
    await grant(t, owner.userId, 10_000);
  });
  afterAll(() => t.close());

  it("another user's key gets 404 job_not_found on every job endpoint, and changes nothing", async () => {
    const doneJob = await convertMarkdown(t, ownerKey);
    const pendingJob = (await upload(t.http, ownerKey.key, [{ name: 'waiting.md', content: '# Waiting\n' }])).body
      .job_id as string;
    const intruder = await signup(t.http, 'intruder');
    const intruderKey = await createKey(t.http, intruder);
    await grant(t, intruder.userId, 10_000);
    const db = t.app.get(DataSource);
    const before = await snapshot(db, [doneJob, pendingJob], [owner.userId, intruder.userId]);

    const routes = await jobRoutes(t);
    expect(routes).toEqual(expect.arrayContaining(NAMED_ROUTES));
    const answers: { route: string; job: string; answer: Answer }[] = [];
    for (const route of routes) {
      for (const job of [doneJob, pendingJob]) {
        answers.push({ route, job, answer: await call(route, job, intruderKey.key) });
      }
    }

    printFigures(`Isolation: ${routes.length} job routes × 2 jobs (done, pending) with another user's key`, [
      ...routes.map((route): [string, string] => [
        route.replace(`${JOB_ROUTE}`, '…'),
        formatHistogram(histogram(answers.filter((a) => a.route === route).map((a) => a.answer.status))),
      ]),
    ]);
    const notFound = (a: Answer) => a.status === 404 && (a.json as { code?: string } | null)?.code === 'job_not_found';
    expect(answers.filter((a) => !notFound(a.answer)).map((a) => `${a.route} → ${a.answer.status}`)).toEqual([]);
    const listed = (await t.http.get('/api/v1/jobs').set('X-API-Key', intruderKey.key).expect(200)).body.jobs as {
      job_id: string;
    }[];
    expect(listed.map((j) => j.job_id)).not.toEqual(expect.arrayContaining([doneJob]));
    expect(listed.map((j) => j.job_id)).not.toEqual(expect.arrayContaining([pendingJob]));
    expect(await snapshot(db, [doneJob, pendingJob], [owner.userId, intruder.userId])).toEqual(before);
    // The same routes do serve the owner: the 404s above are about whose job it is.
    expect((await call(`GET ${JOB_ROUTE}/download`, doneJob, ownerKey.key)).status).toBe(200);
    expect((await call(`GET ${JOB_ROUTE}/pages`, doneJob, ownerKey.key)).status).toBe(200);
  });

  it('a rotated key is refused at once (401); its successor works', async () => {
    const key = await createKey(t.http, owner, { name: 'to rotate' });
    await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200);
    const rotated = await t.http.post(`/api/v1/keys/${key.id}/rotate`).set('Authorization', `Bearer ${owner.jwt}`);
    expect(rotated.status).toBe(201);
    const successor = rotated.body.key as string;

    const old = await Promise.all([
      t.http.get('/api/v1/account').set('X-API-Key', key.key),
      t.http.get('/api/v1/jobs').set('X-API-Key', key.key),
    ]);
    const fresh = await t.http.get('/api/v1/account').set('X-API-Key', successor);
    printFigures('Isolation: key rotation', [
      ['old key, right after rotation', old.map((r) => r.status).join(', ')],
      ['new key', fresh.status],
    ]);
    for (const res of old) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('unauthorized');
    }
    expect(fresh.status).toBe(200);
  });

  it('a download link works until it expires, then is refused with 403', async () => {
    const jobId = await convertMarkdown(t, ownerKey);
    const converted = await t.http
      .post(`/api/v1/jobs/${jobId}/convert`)
      .set('X-API-Key', ownerKey.key)
      .send({ format: 'docx' })
      .expect(200);
    const current = await t.http.get(pathOf(converted.body.download_url as string));
    // A link to the same file made to last one second, used once that second is over.
    const shortLived = await t.app
      .get(Storage)
      .signedUrl(converted.body.storage_path as string, { ttlSeconds: 1, filename: 'result.docx' });
    await untilPast(Number(new URL(shortLived, baseUrl).searchParams.get('expires')));
    const expired = await t.http.get(pathOf(shortLived));

    printFigures('Isolation: signed download links', [
      ['link as issued by convert', current.status],
      ['the same file, link expired', expired.status],
    ]);
    expect(current.status).toBe(200);
    expect(expired.status).toBe(403);
    expect(expired.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(expired.body).toMatchObject({ code: 'signed_url_invalid' });
    expect(expired.body.detail).toMatch(/expired/);
  });

  /** Sends `route` (`METHOD /path`) for `jobId` with `apiKey`, with the route's body if it takes one. */
  function call(route: string, jobId: string, apiKey: string): Promise<Answer> {
    const [method, path] = route.split(' ');
    const body = BODIES[route];
    return send(baseUrl, apiKey, path.replace('{job_id}', jobId), ANSWER_LIMIT_MS, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
  }
});

/** What another user's requests must not change: the jobs' rows and both users' balances and ledgers. */
async function snapshot(db: DataSource, jobIds: string[], userIds: string[]): Promise<unknown> {
  return {
    jobs: await db.query(
      `SELECT j.id, j.status, j.filename, j.cost_points, j.refunded_points,
              (SELECT json_agg(c.* ORDER BY c.format) FROM job_conversions c WHERE c.job_id = j.id) AS conversions
         FROM jobs j WHERE j.id = ANY($1) ORDER BY j.id`,
      [jobIds],
    ),
    users: await db.query('SELECT id, points_balance FROM users WHERE id = ANY($1) ORDER BY id', [userIds]),
    transactions: await db.query('SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = ANY($1)', [
      userIds,
    ]),
  };
}

/** Resolves once the clock has passed `unixSeconds`. */
async function untilPast(unixSeconds: number): Promise<void> {
  while (Date.now() <= unixSeconds * 1000) await new Promise((r) => setTimeout(r, 100));
}
