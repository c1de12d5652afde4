import { ApiProperty } from '@nestjs/swagger';
import type { StartedCheckout } from '@docconv/billing';
import { IsInt } from 'class-validator';

export class CheckoutDto {
  @ApiProperty({
    description:
      'Whole US dollars to pay, within `payments.min_usd` and `payments.max_usd` of GET /pricing; ' +
      'each dollar adds `payments.points_per_usd` points.',
    example: 10,
  })
  @IsInt({ message: 'must be a whole number of US dollars' })
  usd!: number;
}

export class CheckoutResponse {
  @ApiProperty({ description: "Stripe's Checkout Session id.", example: 'cs_test_a1b2c3' }) id!: string;
  @ApiProperty({
    description: "Stripe's hosted payment page: send the buyer there.",
    example: 'https://checkout.stripe.com/c/pay/cs_test_a1b2c3',
  })
  url!: string;
  @ApiProperty({ enum: ['stripe'] }) provider!: 'stripe';
  @ApiProperty({ enum: ['USD'] }) currency!: 'USD';
  @ApiProperty({ description: 'Whole US dollars.', example: 10 }) usd!: number;
  @ApiProperty({ description: 'The amount as payments show it, two fraction digits.', example: '10.00' })
  amount!: string;
  @ApiProperty({ description: 'Points the payment adds once Stripe reports it paid.', example: 10_000 })
  points!: number;
  @ApiProperty({ description: 'Where Stripe sends the buyer after paying: the console’s account page.' })
  success_url!: string;
  @ApiProperty({ description: 'Where Stripe sends a buyer who gives up.' }) cancel_url!: string;
}

export function toCheckoutResponse(c: StartedCheckout): CheckoutResponse {
  return {
    id: c.sessionId,
    url: c.url,
    provider: 'stripe',
    currency: 'USD',
    usd: c.usd,
    amount: c.usd.toFixed(2),
    points: c.points,
    success_url: c.successUrl,
    cancel_url: c.cancelUrl,
  };
}
