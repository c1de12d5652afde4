import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/access.decorator';
import { PaymentWebhookService, type WebhookOutcome } from './payment-webhook.service';

@ApiTags('payments')
@Controller('payments')
export class PaymentsController {
  constructor(private readonly webhooks: PaymentWebhookService) {}

  /** Stripe calls this; the signature over the raw body is the credential. */
  @Post('stripe/webhook')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary: 'Stripe webhook: a paid Checkout Session (client_reference_id = user id) credits points once.',
  })
  @ApiBadRequestResponse({ description: 'The Stripe-Signature header does not verify.' })
  stripe(
    @Req() request: FastifyRequest & { rawBody?: Buffer },
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<WebhookOutcome> {
    return this.webhooks.handleStripe(request.rawBody, signature);
  }
}
