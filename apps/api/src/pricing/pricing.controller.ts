import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CheckoutService } from '@docconv/billing';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { Public } from '../auth/access.decorator';
import { PricingResponse, toPricingResponse } from './pricing.dto';

@ApiTags('pricing')
@Controller('pricing')
export class PricingController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly checkouts: CheckoutService,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'The price table in points (1 point = 1 milli-USD), and whether credits can be bought here.',
  })
  @ApiOkResponse({ type: PricingResponse, description: 'Prices per unit.' })
  pricing(): PricingResponse {
    return toPricingResponse(this.config.pricing, this.checkouts.offer());
  }
}
