import { Injectable, Logger } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PaymentsService } from '@docconv/billing';

export class WebhookOutcome {
  @ApiProperty({ enum: [true] }) received!: true;
  @ApiProperty({
    enum: ['recorded', 'duplicate', 'ignored'],
    description: 'What the event did: a new payment, a repeat of one already recorded, or nothing.',
  })
  outcome!: 'recorded' | 'duplicate' | 'ignored';
  @ApiPropertyOptional({ format: 'uuid', description: 'The payment the event recorded or repeated.' })
  payment_id?: string;
}

@Injectable()
export class PaymentWebhookService {
  private readonly logger = new Logger(PaymentWebhookService.name);

  constructor(private readonly payments: PaymentsService) {}

  async handleStripe(rawBody: Buffer | undefined, signature: string | undefined): Promise<WebhookOutcome> {
    const event = this.payments.verifyStripeEvent(rawBody, signature);
    if (event.type !== 'checkout.session.completed') return { received: true, outcome: 'ignored' };
    const session = event.data.object;
    if (session.payment_status !== 'paid') return { received: true, outcome: 'ignored' };
    const { payment, created } = await this.payments.recordStripeCheckout(session);
    if (created) this.logger.log({ payment_id: payment.id, points: payment.pointsAdded }, 'Stripe payment recorded');
    return { received: true, outcome: created ? 'recorded' : 'duplicate', payment_id: payment.id };
  }
}
