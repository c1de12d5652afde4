import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Access, Public } from '../auth/access.decorator';
import { Caller, type Principal } from '../auth/principal';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { CheckoutDto, CheckoutResponse } from './checkout.dto';
import { PaymentCheckoutService } from './payment-checkout.service';
import { PaymentWebhookService, WebhookOutcome } from './payment-webhook.service';

@ApiTags('payments')
@Controller('payments')
export class PaymentsController {
  constructor(
    private readonly webhooks: PaymentWebhookService,
    private readonly checkouts: PaymentCheckoutService,
  ) {}

  @Post('checkout')
  @HttpCode(200)
  @Access({ credential: 'api_key_or_jwt' })
  @Idempotent()
  @ApiOperation({
    summary:
      'Buy credits: opens a Stripe Checkout page for `usd` dollars and returns its URL. The points are credited ' +
      'when Stripe reports the payment paid (the webhook); the buyer comes back to the console’s account page ' +
      'on the service’s configured public address (`PUBLIC_BASE_URL`), never one a request names.',
  })
  @ApiOkResponse({ type: CheckoutResponse })
  @ApiBadRequestResponse({ description: '`usd` is not a whole number within the bounds GET /pricing lists.' })
  @ApiServiceUnavailableResponse({
    description:
      'Payments are not configured here (Stripe keys or `PUBLIC_BASE_URL`; GET /pricing says `payments.available: false`), or Stripe failed.',
  })
  checkout(@Caller() caller: Principal, @Body() body: CheckoutDto): Promise<CheckoutResponse> {
    return this.checkouts.start(caller, body.usd);
  }

  /** Stripe calls this; the signature over the raw body is the credential. */
  @Post('stripe/webhook')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary:
      'Stripe webhook: the events of a Checkout Session opened by POST /payments/checkout record its payment (pending, done or failed); once paid it credits the points the checkout quoted, once. An event that cannot be applied answers 200 with outcome `ignored` and the reason.',
  })
  @ApiOkResponse({ type: WebhookOutcome })
  @ApiBadRequestResponse({ description: 'The Stripe-Signature header does not verify.' })
  stripe(
    @Req() request: FastifyRequest & { rawBody?: Buffer },
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<WebhookOutcome> {
    return this.webhooks.handleStripe(request.rawBody, signature);
  }
}
