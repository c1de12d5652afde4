import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import { makeDocx, makePdf } from '../test/support/fixtures';
import { upload, waitForJob } from '../test/support/jobs';
import {
  BASIC_PAGE_POINTS,
  disagreements,
  FREE_PAGES_PER_MONTH,
  moneyOf,
  pdfWithUnreadablePages,
} from '../test/support/money';
import { privateStack } from '../test/support/private-stack';
import {
  checkoutSessionEvent,
  deliverStripeEvent,
  startStripeMock,
  type CheckoutEventOptions,
  type StripeMock,
} from '../test/support/stripe';
import { deleteRedisKeys } from './support/redis-keys';
import { grant, serve } from './support/api';
import { histogram, formatHistogram, printFigures } from './support/figures';

const USERS = 4;

/** What each user sends: the mix of ways a job can fail to deliver everything. */
type Plan =
  | 'file fails'
  | 'pages fail'
  | 'nothing readable, refunded'
  | 'cancel mid-file'
  | 'cancel between files'
  | 'cancel at once'
  | 'cancel pending';

const PLANS: Plan[] = [
  'file fails',
  'pages fail',
  'nothing readable, refunded',
  'cancel mid-file',
  'cancel between files',
  'cancel at once',
  'cancel pending',
];

/** Bank payments each user makes while the jobs run: one clears, one fails (Stripe's delayed methods). */
type Payment = 'bank payment clears' | 'bank payment fails';

const PAYMENTS: { plan: Payment; usd: number }[] = [
  { plan: 'bank payment clears', usd: 25 },
  { plan: 'bank payment fails', usd: 10 },
];

const COMPLETED_UNPAID: CheckoutEventOptions = { paymentStatus: 'unpaid' };
const ASYNC_SUCCEEDED: CheckoutEventOptions = { type: 'checkout.session.async_payment_succeeded' };
const ASYNC_FAILED: CheckoutEventOptions = { type: 'checkout.session.async_payment_failed', paymentStatus: 'unpaid' };

/**
 * Money under a mix of what does not get delivered: files and pages that cannot be read, jobs that
 * read nothing and are refunded, and cancels mid-file, between files, at once and before
 * confirming, from several users at once on a worker running two jobs at a time, while each user's
 * bank payments are pending, clear or fail (Stripe's events delivered several times at once). For
 * every user the ledger adds up to the balance, every job's refund is exactly the points of what it
 * did not deliver (its ledger refunds the same), the free-page counter holds exactly the free pages
 * of pages delivered and of jobs still open, and exactly the payments that cleared are credited, at
 * their checkout's quote.
 */
describe('refunds exact under a mix of cancels, failures and bank payments', () => {
  let stripeMock: StripeMock;
  // Before the stack's own beforeAll: the API it starts talks to this Stripe.
  beforeAll(async () => {
    stripeMock = await startStripeMock();
    Object.assign(stack.env, stripeMock.env);
  });
  afterAll(() => stripeMock?.close());
  const { stack, start } = privateStack('refunds', { PUBLIC_BASE_URL: 'https://docconv.example.com/' });
  beforeAll(() => start({ WORKER_CONCURRENCY: '2' }), 60_000);
  afterAll(() => deleteRedisKeys(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!));

  it(`${USERS} users, ${PLANS.length} kinds of undelivered work and two bank payments each: ledger, refunds, free pages and credits agree`, async () => {
    const { t } = stack;
    await serve(t);
    const db = t.app.get(DataSource);
    const long = await makePdf(
      Array.from({ length: 900 }, (_, i) => `Page ${i + 1} of the long report.\nIts second line, and a third.`),
    );
    const notes = await Promise.all(Array.from({ length: 80 }, (_, i) => makeDocx([`Note ${i + 1}.`])));
    const good = await makePdf(['Good page one', 'Good page two']);
    const blank = await pdfWithUnreadablePages([null]);
    const mixed = await pdfWithUnreadablePages(['Read one', null, 'Read three']);

    const outcomes: string[] = [];
    const users = await Promise.all(
      Array.from({ length: USERS }, async (_, u) => {
        const user = await signup(t.http, `refunds-${u}`);
        const key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
        await grant(t, user.userId, 1_000_000);
        // Users start with different free pages left, so some jobs are part free, part paid.
        const reserved = [0, 40, 97, FREE_PAGES_PER_MONTH][u];
        if (reserved > 0) {
          const pdf = await makePdf(Array.from({ length: reserved }, (_, i) => `Reserved ${i + 1}`));
          await upload(t.http, key.key, [{ name: 'reserved.pdf', content: pdf }], { ocr_model: 'basic' });
        }
        const auth = { 'X-API-Key': key.key };
        const send = async (files: { name: string; content: Buffer }[], confirm = true) => {
          const res = await upload(t.http, key.key, files, { ocr_engine: 'tesseract', ocr_model: 'basic' });
          expect(res.status).toBe(201);
          if (confirm) await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set(auth).expect(200);
          return res.body.job_id as string;
        };
        const cancel = async (jobId: string) => {
          const res = await t.http.post(`/api/v1/jobs/${jobId}/cancel`).set(auth);
          return String(res.status);
        };
        const pay = async ({ plan, usd }: (typeof PAYMENTS)[number]) => {
          const opened = await t.http.post('/api/v1/payments/checkout').set(auth).send({ usd }).expect(200);
          const event = (options: CheckoutEventOptions) =>
            checkoutSessionEvent(user.userId, usd * 100, opened.body.id as string, options);
          const deliver = (options: CheckoutEventOptions, times: number) =>
            Promise.all(Array.from({ length: times }, () => deliverStripeEvent(t.http, event(options)).expect(200)));
          await deliver(COMPLETED_UNPAID, 2);
          // The outcome arrives several times at once; a failed payment's late success changes nothing.
          if (plan === 'bank payment clears') await deliver(ASYNC_SUCCEEDED, 3);
          else await deliver(ASYNC_FAILED, 3).then(() => deliver(ASYNC_SUCCEEDED, 1));
          outcomes.push(`${plan}: ${usd} USD`);
        };
        await Promise.all([
          ...PAYMENTS.map(pay),
          ...PLANS.map(async (plan) => {
            let outcome: string;
            switch (plan) {
              case 'file fails': {
                const id = await send([
                  { name: 'good.pdf', content: good },
                  { name: 'blank.pdf', content: blank },
                ]);
                outcome = String((await waitForJob(t.http, key.key, id, ['done', 'error'], 300_000)).status);
                break;
              }
              case 'pages fail': {
                const id = await send([{ name: 'mixed.pdf', content: mixed }]);
                outcome = String((await waitForJob(t.http, key.key, id, ['done', 'error'], 300_000)).status);
                break;
              }
              case 'nothing readable, refunded': {
                const id = await send([{ name: 'blank.pdf', content: blank }]);
                const job = await waitForJob(t.http, key.key, id, ['done', 'error'], 300_000);
                expect(job).toMatchObject({ status: 'error', refundable: true });
                await t.http.post(`/api/v1/jobs/${id}/action`).set(auth).send({ action: 'refund' }).expect(200);
                outcome = 'error, refunded';
                break;
              }
              case 'cancel mid-file': {
                const id = await send([{ name: 'long.pdf', content: long }]);
                await waitFor(t.http, key, id, (job) => (job.done_pages as number) > 0);
                outcome = `cancel ${await cancel(id)}`;
                break;
              }
              case 'cancel between files': {
                const id = await send(notes.map((content, i) => ({ name: `note-${i + 1}.docx`, content })));
                await waitFor(t.http, key, id, (job) => (job.done_files as number) > 0);
                outcome = `cancel ${await cancel(id)}`;
                break;
              }
              case 'cancel at once': {
                const id = await send([{ name: 'long.pdf', content: long }]);
                outcome = `cancel ${await cancel(id)}`;
                break;
              }
              case 'cancel pending': {
                const id = await send([{ name: 'good.pdf', content: good }], false);
                outcome = `cancel ${await cancel(id)}`;
                break;
              }
            }
            outcomes.push(`${plan}: ${outcome}`);
          }),
        ]);
        // Every job has ended (a cancel answered 202 is still stopping).
        for (const { id } of await db.query<{ id: string }[]>(
          `SELECT id FROM jobs WHERE user_id = $1 AND status IN ('queued', 'processing')`,
          [user.userId],
        ))
          await waitForJob(t.http, key.key, id, ['done', 'error', 'cancelled'], 300_000);
        const used = (await t.http.get('/api/v1/account').set(auth).expect(200)).body.free_pages.used as number;
        const payments = await db.query<{ status: string; points_added: string; quoted: string }[]>(
          `SELECT p.status, p.points_added, c.points AS quoted
             FROM payments p JOIN checkouts c ON c.id = p.checkout_id WHERE p.user_id = $1`,
          [user.userId],
        );
        const [{ credited }] = await db.query<{ credited: string }[]>(
          `SELECT coalesce(sum(amount), 0) AS credited FROM credit_transactions WHERE user_id = $1 AND type = 'charge'`,
          [user.userId],
        );
        return { ...(await moneyOf(db, user.userId, used)), payments, credited: Number(credited) };
      }),
    );

    const figures = users.flatMap((money, u) => {
      const refunded = money.jobs.reduce((sum, job) => sum + job.refundedPoints, 0);
      const undelivered = money.jobs.reduce((sum, job) => sum + job.undeliveredPoints, 0);
      const ledgerRefunds = money.jobs.reduce((sum, job) => sum + job.ledgerRefunds, 0);
      const delivered = money.jobs.reduce((sum, job) => sum + job.deliveredPages, 0);
      const returned = money.jobs.reduce((sum, job) => sum + job.freePagesReturned, 0);
      const owed = money.jobs.reduce((sum, job) => sum + job.freePagesUndelivered, 0);
      return [
        [`user ${u + 1}: ledger sum / balance`, `${money.ledgerSum} / ${money.balance}`],
        [
          `user ${u + 1}: refunded / undelivered points / ledger refunds`,
          `${refunded} / ${undelivered} / ${ledgerRefunds}`,
        ],
        [`user ${u + 1}: pages delivered (paid at ${BASIC_PAGE_POINTS})`, delivered],
        [`user ${u + 1}: free pages returned / undelivered`, `${returned} / ${owed}`],
        [`user ${u + 1}: free pages counted / held`, `${money.freePagesCounted} / ${money.freePagesHeld}`],
        [
          `user ${u + 1}: payments (status: points added of quoted) / ledger credits`,
          `${money.payments.map((p) => `${p.status}: ${p.points_added} of ${p.quoted}`).join(', ')} / ${money.credited}`,
        ],
      ] as [string, string | number][];
    });
    const wrong = [
      ...users.flatMap(disagreements),
      // One payment per checkout: the one that cleared is credited its quote once, the one that failed nothing.
      ...users.flatMap((money) => {
        const byStatus = Object.fromEntries(money.payments.map((p) => [p.status, p]));
        const { done: cleared, failed } = byStatus;
        const exact =
          money.payments.length === PAYMENTS.length &&
          cleared !== undefined &&
          failed !== undefined &&
          Number(cleared.points_added) === Number(cleared.quoted) &&
          Number(failed.points_added) === 0 &&
          money.credited === Number(cleared.quoted);
        return exact
          ? []
          : [[`${money.userId}: payments`, `${JSON.stringify(money.payments)}, credited ${money.credited}`]];
      }),
    ];
    printFigures(`Refunds: ${USERS} users, cancels, failed files, failed pages and bank payments mixed`, [
      ['outcomes', formatHistogram(histogram(outcomes))],
      ...figures,
      ['disagreements', wrong.length === 0 ? 'none' : JSON.stringify(wrong)],
    ]);
    expect(wrong).toEqual([]);
    // The mix happened: some pages were refunded after a cancel while processing.
    const cancelledWhileRunning = users.flatMap((m) =>
      m.jobs.filter((j) => j.status === 'cancelled' && j.deliveredPages > 0),
    );
    expect(cancelledWhileRunning.length).toBeGreaterThan(0);
  }, 600_000);

  async function waitFor(
    http: typeof stack.t.http,
    key: TestKey,
    jobId: string,
    ready: (job: Record<string, unknown>) => boolean,
  ) {
    const deadline = Date.now() + 300_000; // behind the other users' jobs on a worker running two at a time
    for (;;) {
      const job = (await http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key)).body as Record<string, unknown>;
      if (ready(job) || ['done', 'error', 'cancelled'].includes(job.status as string)) return job;
      if (Date.now() > deadline) throw new Error(`job still ${String(job.status)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
});
