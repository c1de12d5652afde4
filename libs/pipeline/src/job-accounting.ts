import { settle, type PricedFile } from '@docconv/billing';
import type { PriceTable } from '@docconv/config';
import type { JobEntity } from '@docconv/db';
import type { Undelivered } from '@docconv/lifecycle';

/** What a conversion run handed over and what it did not, as the ledger needs it. */
export interface Delivery {
  /** What each file that delivered something delivered (see deliveredOf): none, and nothing was. */
  delivered: PricedFile[];
  /** The pages and files not delivered, named for the ledger. */
  failedUnits: string[];
  /** Pages and images that were not read (a page that failed, every page of a file that failed). */
  failed: number;
  stopped: boolean;
  /** Where a stopped job saw the cancel, said to its owner (`cancel seen …`). */
  seen?: string;
}

/**
 * What the job owes back for what it charged and did not deliver (settled by billing, as its
 * quote priced it), with the pages that were, named for the ledger: the hand-off from a
 * conversion run to the lifecycle's `finish` or `stopCancelled` move.
 */
export function undeliveredOf(job: JobEntity, delivery: Delivery, prices: PriceTable): Undelivered {
  const settled = settle(job, delivery.delivered, prices);
  const what = delivery.stopped
    ? `cancelled while processing; ${settled.pages} of ${job.totalPages} pages and ${settled.images} of ${job.imageCount} images finished before the cancel and delivered; cancel seen ${delivery.seen}`
    : `not delivered: ${delivery.failedUnits.join('; ')}`;
  return {
    points: settled.points,
    pages: what,
    delivered: settled.pages + settled.images,
    failed: delivery.failed,
    refunded: settled.refunded,
    freePages: settled.freePages,
  };
}
