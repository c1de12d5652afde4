import { Processor } from '@nestjs/bullmq';
import { QueueProcessor } from './queue-processor';

@Processor('maintenance', { autorun: false })
export class MaintenanceProcessor extends QueueProcessor {}
