import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../auth/access.decorator';
import { Caller, type Principal } from '../auth/principal';
import { WebhookSecrets } from '@docconv/webhooks';
import { WEBHOOK_DOCUMENTATION, WebhookSecretResponse } from './webhooks.dto';

@ApiTags('account')
@Controller('account/webhook-secret')
@Access({ credential: 'api_key_or_jwt', scope: 'jobs:write' })
export class WebhookSecretController {
  constructor(private readonly secrets: WebhookSecrets) {}

  @Get()
  @ApiOperation({
    summary: 'The secret that signs your webhook deliveries (created on first use).',
    description: WEBHOOK_DOCUMENTATION,
  })
  @ApiOkResponse({ type: WebhookSecretResponse })
  async secret(@Caller() caller: Principal): Promise<WebhookSecretResponse> {
    return { secret: await this.secrets.current(caller.userId) };
  }

  @Post('rotate')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Replace the webhook secret. Every delivery sent from now on, retries of earlier events included, is signed with the new one.',
  })
  @ApiOkResponse({ type: WebhookSecretResponse })
  async rotate(@Caller() caller: Principal): Promise<WebhookSecretResponse> {
    return { secret: await this.secrets.rotate(caller.userId) };
  }
}
