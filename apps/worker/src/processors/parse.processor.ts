import { Processor } from '@nestjs/bullmq';
import { QueueProcessor } from './queue-processor';

@Processor('parse', { autorun: false })
export class ParseProcessor extends QueueProcessor {}
