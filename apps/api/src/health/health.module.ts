import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CapabilitiesService } from '../capabilities/capabilities.service';
import { HealthController } from './health.controller';
import { ReadinessIndicators } from './readiness.indicators';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [ReadinessIndicators, CapabilitiesService],
})
export class HealthModule {}
