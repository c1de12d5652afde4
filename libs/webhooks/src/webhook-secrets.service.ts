import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { DataSource } from 'typeorm';
import { newWebhookSecret } from './webhook-signature';

/**
 * Each user's webhook signing secret. It is made the first time it is needed (shown to the
 * user, or used to sign), and rotation replaces it at once: deliveries sent from then on,
 * retries of earlier events included, are signed with the new one.
 */
@Injectable()
export class WebhookSecrets {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user's secret, created now if they have none. Concurrent first calls agree on one. */
  async current(userId: string): Promise<string> {
    return this.write(userId, 'coalesce(webhook_secret, $2)');
  }

  /** Replaces the user's secret with a new one and returns it. */
  async rotate(userId: string): Promise<string> {
    return this.write(userId, '$2');
  }

  private async write(userId: string, expression: string): Promise<string> {
    const rows = await this.dataSource.query<{ webhook_secret: string }[]>(
      `WITH updated AS (UPDATE users SET webhook_secret = ${expression} WHERE id = $1 RETURNING webhook_secret)
       SELECT webhook_secret FROM updated`,
      [userId, newWebhookSecret()],
    );
    if (rows.length === 0) throw new DomainError('user_not_found', 'This account no longer exists.');
    return rows[0].webhook_secret;
  }
}
