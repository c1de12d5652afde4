import { Injectable } from '@nestjs/common';
import { JobsMaintenanceService } from '@docconv/jobs';
import { JobHandler } from './job-handler.decorator';

@Injectable()
export class MaintenanceHandler {
  constructor(private readonly maintenance: JobsMaintenanceService) {}

  @JobHandler('maintenance.expire-pending')
  expirePending(): Promise<{ expired: number }> {
    return this.maintenance.expirePending();
  }

  @JobHandler('maintenance.fail-overdue')
  failOverdue(): Promise<{ failed: number }> {
    return this.maintenance.failOverdue();
  }

  @JobHandler('maintenance.sweep-queued')
  sweepQueued(): Promise<{ resent: number }> {
    return this.maintenance.sweepQueued();
  }
}
