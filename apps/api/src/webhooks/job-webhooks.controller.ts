import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../auth/access.decorator';
import { Caller, type Principal } from '../auth/principal';
import { idParam } from '../common/id-param';
import { WebhookDeliveries } from '@docconv/webhooks';
import { JobWebhooksResponse, toDeliveryResponse, WEBHOOK_DOCUMENTATION } from './webhooks.dto';

const JOB_ID = idParam('job_not_found', 'job of yours');

@ApiTags('jobs')
@Controller('jobs')
export class JobWebhooksController {
  constructor(private readonly webhooks: WebhookDeliveries) {}

  @Get(':job_id/webhooks')
  @Access({ credential: 'api_key_or_jwt', scope: 'jobs:read' })
  @ApiOperation({
    summary: 'The webhook deliveries of a job, with their attempts and outcome.',
    description: WEBHOOK_DOCUMENTATION,
  })
  @ApiOkResponse({ type: JobWebhooksResponse })
  @ApiNotFoundResponse()
  async deliveries(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<JobWebhooksResponse> {
    const deliveries = await this.webhooks.forJob(caller.userId, jobId);
    return { job_id: jobId, deliveries: deliveries.map(toDeliveryResponse) };
  }
}
