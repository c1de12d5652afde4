import { Injectable } from '@nestjs/common';
import { Sweeper, type SweepReport } from '@docconv/lifecycle';
import { JobHandler } from './job-handler.decorator';

@Injectable()
export class MaintenanceHandler {
  constructor(private readonly sweeper: Sweeper) {}

  @JobHandler('maintenance.expire-pending')
  expirePending(): Promise<{ expired: number }> {
    return this.sweeper.expirePending();
  }

  @JobHandler('maintenance.fail-overdue')
  failOverdue(): Promise<{ failed: number }> {
    return this.sweeper.failOverdue();
  }

  @JobHandler('maintenance.sweep')
  sweep(): Promise<SweepReport> {
    return this.sweeper.sweep();
  }
}
