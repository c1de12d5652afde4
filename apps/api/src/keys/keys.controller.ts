import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeysService } from '@docconv/accounts';
import { Access } from '../auth/access.decorator';
import { Caller, type Principal } from '../auth/principal';
import { idParam } from '../common/id-param';
import {
  CreateKeyDto,
  IssuedKeyResponse,
  KeyResponse,
  toIssuedKeyResponse,
  toKeyResponse,
  UpdateKeyDto,
} from './keys.dto';

const KEY_ID = idParam('key_not_found', 'API key of yours');

@ApiTags('keys')
@Controller('keys')
@Access({ credential: 'jwt' })
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @Access({ credential: 'jwt', recentLogin: true })
  @ApiOperation({ summary: 'Create an API key. The key is returned once.' })
  @ApiCreatedResponse({ type: IssuedKeyResponse })
  async create(@Caller() caller: Principal, @Body() body: CreateKeyDto): Promise<IssuedKeyResponse> {
    return toIssuedKeyResponse(
      await this.keys.create(caller.userId, {
        name: body.name,
        scopes: body.scopes,
        rateLimitRpm: body.rate_limit_rpm,
        dailyQuota: body.daily_quota,
      }),
    );
  }

  @Get()
  @ApiOperation({ summary: 'List your keys, newest first (never the secret).' })
  @ApiOkResponse({ type: KeyResponse, isArray: true })
  async list(@Caller() caller: Principal): Promise<KeyResponse[]> {
    return (await this.keys.list(caller.userId)).map(toKeyResponse);
  }

  @Post(':key_id/rotate')
  @Access({ credential: 'jwt', recentLogin: true })
  @ApiOperation({ summary: 'Deactivate the key at once and issue a new one with the same settings.' })
  @ApiCreatedResponse({ type: IssuedKeyResponse })
  @ApiNotFoundResponse({ description: 'No active key with this id is yours.' })
  async rotate(@Caller() caller: Principal, @Param('key_id', KEY_ID) keyId: string): Promise<IssuedKeyResponse> {
    return toIssuedKeyResponse(await this.keys.rotate(caller.userId, keyId));
  }

  @Patch(':key_id')
  @Access({ credential: 'jwt', recentLogin: true })
  @ApiOperation({ summary: 'Change a key: name, scopes, rate_limit_rpm, daily_quota.' })
  @ApiOkResponse({ type: KeyResponse })
  async update(
    @Caller() caller: Principal,
    @Param('key_id', KEY_ID) keyId: string,
    @Body() body: UpdateKeyDto,
  ): Promise<KeyResponse> {
    return toKeyResponse(
      await this.keys.update(caller.userId, keyId, {
        name: body.name,
        scopes: body.scopes,
        rateLimitRpm: body.rate_limit_rpm,
        dailyQuota: body.daily_quota,
      }),
    );
  }

  @Delete(':key_id')
  @ApiOperation({ summary: 'Deactivate a key. It is refused from the next request on.' })
  @ApiOkResponse({ type: KeyResponse })
  async deactivate(@Caller() caller: Principal, @Param('key_id', KEY_ID) keyId: string): Promise<KeyResponse> {
    return toKeyResponse(await this.keys.deactivate(caller.userId, keyId));
  }
}
