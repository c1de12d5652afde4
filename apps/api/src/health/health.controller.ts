import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
} from '@nestjs/terminus';
import { Public } from '../auth/access.decorator';
import { CapabilitiesService } from '../capabilities/capabilities.service';
import { enginesCheck, ReadinessIndicators } from './readiness.indicators';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly readiness: ReadinessIndicators,
    private readonly capabilities: CapabilitiesService,
    private readonly indicators: HealthIndicatorService,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness: the API process answers.' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  alive(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @HealthCheck()
  @ApiOperation({
    summary:
      'Readiness: PostgreSQL, Redis, storage and at least one live worker; the Python engines (EasyOCR, speech) are listed with their state.',
  })
  @ApiServiceUnavailableResponse({ description: 'A dependency is down; `checks` says which.' })
  ready(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: 1_500 }),
      () => this.readiness.redisUp(),
      () => this.readiness.storageUp(),
      () => this.readiness.workerSeen(),
      () => enginesCheck(this.indicators, async () => (await this.capabilities.current()).report.engines ?? []),
    ]);
  }
}
