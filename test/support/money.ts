import type { DataSource } from 'typeorm';
import { pdfBytes } from '../../libs/documents/src/pdf/testing/pdf-bytes';
import { makePicturePng } from './fixtures';

/** What a basic-model page costs with the default prices. */
export const BASIC_PAGE_POINTS = 10;

/** Free basic pages a user has each month with the default configuration. */
export const FREE_PAGES_PER_MONTH = 100;

/**
 * A PDF with one page per entry: a string is a page of that text; null is a scanned page that is
 * only a picture without letters, on which OCR finds no text though it has ink (a page that
 * cannot be read). A PDF of only such pages is a file that cannot be read at all.
 */
export async function pdfWithUnreadablePages(pages: (string | null)[]): Promise<Buffer> {
  const picture = await makePicturePng();
  return pdfBytes((doc) => {
    for (const text of pages) {
      doc.addPage({ size: 'A4', margin: 72 });
      if (text === null) doc.image(picture, 40, 100, { width: 515 });
      else doc.fontSize(14).text(text);
    }
  });
}

/** One ended job's money, as recorded and as recomputed from the pages it delivered. */
export interface JobMoney {
  id: string;
  status: string;
  /** Accepted and charged (a pending job cancelled or expired never was). */
  confirmed: boolean;
  costPoints: number;
  refundedPoints: number;
  /** The sum of the job's refund rows in the ledger. */
  ledgerRefunds: number;
  /** The points of the pages it did not deliver: its cost less the paid pages it delivered. */
  undeliveredPoints: number;
  deliveredPages: number;
  failedPages: number;
  refundedPages: number;
  totalPages: number;
  freePagesUsed: number;
  freePagesReturned: number;
  /** The free pages of those it reserved that its delivered pages did not take. */
  freePagesUndelivered: number;
}

/** A user's money: the ledger, the balance, every job's refund and the free-page counter, each recomputed. */
export interface UserMoney {
  userId: string;
  ledgerSum: number;
  balance: number;
  jobs: JobMoney[];
  /** Free pages the account shows used this month. */
  freePagesCounted: number;
  /** Free pages the user's jobs hold: reserved by pending and running ones, taken by pages delivered. */
  freePagesHeld: number;
}

/**
 * The money of `userId`, whose jobs are PDFs read with the basic model at BASIC_PAGE_POINTS a
 * page (free pages first): the pages delivered are the ones paid for, everything else is refunded.
 * A job that ended in error holds its charge and free pages until it is refunded or retried.
 */
export async function moneyOf(db: DataSource, userId: string, freePagesCounted: number): Promise<UserMoney> {
  const [{ sum }] = await db.query<{ sum: string }[]>(
    'SELECT coalesce(sum(amount), 0)::text AS sum FROM credit_transactions WHERE user_id = $1',
    [userId],
  );
  const [{ points_balance: balance }] = await db.query<{ points_balance: string }[]>(
    'SELECT points_balance FROM users WHERE id = $1',
    [userId],
  );
  const rows = await db.query<Record<string, string | number>[]>(
    `SELECT j.id, j.status, j.cost_points::int AS cost, j.refunded_points::int AS refunded, j.delivered_pages AS delivered,
            j.failed_pages AS failed, j.refunded_pages AS refunded_pages, j.total_pages AS total,
            j.free_pages_used AS free_used, j.free_pages_returned AS free_returned, j.refundable,
            j.confirmed_at IS NOT NULL AS confirmed,
            (SELECT coalesce(sum(amount), 0)::int FROM credit_transactions t WHERE t.job_id = j.id AND t.type = 'refund') AS ledger_refunds
       FROM jobs j WHERE j.user_id = $1 ORDER BY j.created_at`,
    [userId],
  );
  let held = 0;
  const jobs: JobMoney[] = [];
  for (const r of rows) {
    const status = String(r.status);
    const freeUsed = Number(r.free_used);
    const delivered = Number(r.delivered);
    const ended = status === 'done' || status === 'cancelled' || (status === 'error' && !r.refundable);
    if (!ended) {
      held += freeUsed; // pending, queued, processing, or in error awaiting a retry or refund
      continue;
    }
    const freeTaken = Math.min(delivered, freeUsed);
    held += freeTaken;
    jobs.push({
      id: String(r.id),
      status,
      confirmed: Boolean(r.confirmed),
      costPoints: Number(r.cost),
      refundedPoints: Number(r.refunded),
      ledgerRefunds: Number(r.ledger_refunds),
      undeliveredPoints: Number(r.cost) - Math.max(0, delivered - freeUsed) * BASIC_PAGE_POINTS,
      deliveredPages: delivered,
      failedPages: Number(r.failed),
      refundedPages: Number(r.refunded_pages),
      totalPages: Number(r.total),
      freePagesUsed: freeUsed,
      freePagesReturned: Number(r.free_returned),
      freePagesUndelivered: freeUsed - freeTaken,
    });
  }
  return { userId, ledgerSum: Number(sum), balance: Number(balance), jobs, freePagesCounted, freePagesHeld: held };
}

/** Every way a user's money must agree, as [what, expected, found] for the ones that do not. */
export function disagreements(money: UserMoney): [string, number, number][] {
  const wrong: [string, number, number][] = [];
  const check = (what: string, expected: number, found: number) => {
    if (expected !== found) wrong.push([what, expected, found]);
  };
  check('balance = ledger sum', money.ledgerSum, money.balance);
  check('free pages counted = held', money.freePagesHeld, money.freePagesCounted);
  for (const job of money.jobs) {
    const name = `job ${job.id} (${job.status})`;
    check(`${name}: refunded = undelivered points`, job.undeliveredPoints, job.refundedPoints);
    check(`${name}: ledger refunds = refunded`, job.refundedPoints, job.ledgerRefunds);
    check(`${name}: free pages returned = undelivered`, job.freePagesUndelivered, job.freePagesReturned);
    if (job.confirmed)
      check(`${name}: delivered + refunded pages = total`, job.totalPages, job.deliveredPages + job.refundedPages);
  }
  return wrong;
}
