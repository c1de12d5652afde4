import { Injectable, Logger } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PaymentsService } from '@docconv/billing';

export class WebhookOutcome {
  @ApiProperty({ enum: [true] }) received!: true;
  @ApiProperty({
    enum: ['recorded', 'duplicate', 'ignored'],
    description:
      'What the event did: recorded a payment or changed its status, repeated a status already recorded, or nothing.',
  })
  outcome!: 'recorded' | 'duplicate' | 'ignored';
  @ApiPropertyOptional({ format: 'uuid', description: 'The payment the event recorded, repeated or left as it was.' })
  payment_id?: string;
  @ApiPropertyOptional({
    enum: ['pending', 'done', 'failed', 'refunded'],
    description: 'The status of that payment after the event.',
  })
  status?: string;
  @ApiPropertyOptional({ description: 'Why an ignored event changed nothing.' })
  reason?: string;
}

@Injectable()
export class PaymentWebhookService {
  private readonly logger = new Logger(PaymentWebhookService.name);

  constructor(private readonly payments: PaymentsService) {}

  async handleStripe(rawBody: Buffer | undefined, signature: string | undefined): Promise<WebhookOutcome> {
    const result = await this.payments.applyStripeEvent(this.payments.verifyStripeEvent(rawBody, signature));
    const payment = result.payment && { payment_id: result.payment.id, status: result.payment.status };
    if (result.outcome === 'ignored') {
      if (result.notable) {
        this.logger.warn({ event_id: result.eventId, ...payment, reason: result.reason }, 'Stripe event not applied');
      }
      return { received: true, outcome: 'ignored', ...payment, reason: result.reason };
    }
    if (result.outcome === 'recorded') {
      this.logger.log(
        { ...payment, points: result.payment.pointsAdded, external_id: result.payment.externalId },
        'Stripe payment recorded',
      );
    }
    return { received: true, outcome: result.outcome, ...payment! };
  }
}
