import { Injectable } from '@nestjs/common';
import { CheckoutService } from '@docconv/billing';
import type { Principal } from '../auth/principal';
import { toCheckoutResponse, type CheckoutResponse } from './checkout.dto';

/** Builds the checkout endpoint's response from the billing library. */
@Injectable()
export class PaymentCheckoutService {
  constructor(private readonly checkouts: CheckoutService) {}

  async start(caller: Principal, usd: number): Promise<CheckoutResponse> {
    return toCheckoutResponse(await this.checkouts.start(caller.userId, usd));
  }
}
