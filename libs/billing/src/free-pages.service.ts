import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DataSource, type EntityManager } from 'typeorm';

/** A user's free basic-model pages of the current UTC calendar month. */
export interface FreePagesAllowance {
  /** Free pages every user has each month (`FREE_PAGES_PER_MONTH`). */
  monthly: number;
  /**
   * Taken this month by jobs that still hold them: a job gives back those of the pages and files
   * it did not deliver, and all of them when it is cancelled before processing, expires or is refunded.
   */
  used: number;
  left: number;
  /** 00:00 UTC on the first day of next month, when `used` starts again from 0. */
  resetsAt: Date;
}

/**
 * The one rule for free pages: the first `FREE_PAGES_PER_MONTH` basic pages of each UTC
 * calendar month are free. A job holds the pages its quote made free from its upload on, less
 * those it gave back (`free_pages_returned`, written by the move that ends, cancels or refunds it).
 */
@Injectable()
export class FreePagesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Read through `m` inside a transaction that serialises the user's uploads, so two cannot count the same pages. */
  async allowance(userId: string, m: EntityManager = this.dataSource.manager): Promise<FreePagesAllowance> {
    const [row] = await m.query<{ used: string; resets_at: Date }[]>(
      `SELECT coalesce(sum(free_pages_used - free_pages_returned), 0) AS used,
              (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC' AS resets_at
         FROM jobs
        WHERE user_id = $1 AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
      [userId],
    );
    const monthly = this.config.pricing.freePagesPerMonth;
    const used = Number(row.used);
    return { monthly, used, left: Math.max(0, monthly - used), resetsAt: new Date(row.resets_at) };
  }
}
