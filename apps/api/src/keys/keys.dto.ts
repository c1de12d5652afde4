import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { SCOPES, type Scope } from '@docconv/contracts';
import type { ApiKeyEntity } from '@docconv/db';
import { NO_CONTROL_CHARACTERS, wireTime } from '../common/wire';
import { Omittable } from '../errors/validation';

export const MAX_RATE_LIMIT_RPM = 100_000;
/** A trillion points (a billion dollars) a day: more than any key spends, and well inside a safe integer. */
export const MAX_DAILY_QUOTA = 1_000_000_000_000;

export class CreateKeyDto {
  @ApiPropertyOptional({ default: '', maxLength: 100 })
  @Omittable()
  @IsString()
  @MaxLength(100)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'must not contain control characters' })
  name?: string;

  @ApiPropertyOptional({ enum: SCOPES, isArray: true, default: SCOPES })
  @Omittable()
  @IsArray()
  @ArrayUnique()
  @IsIn(SCOPES, { each: true, message: `each value must be one of ${SCOPES.join(', ')}` })
  scopes?: Scope[];

  @ApiPropertyOptional({ default: 60, minimum: 1, maximum: MAX_RATE_LIMIT_RPM })
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT_RPM)
  rate_limit_rpm?: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: MAX_DAILY_QUOTA,
    description: 'Points per UTC day; null means unlimited.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_DAILY_QUOTA)
  daily_quota?: number | null;
}

export class UpdateKeyDto extends CreateKeyDto {}

export class KeyResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'dcv_Xy3k9Qa1' }) prefix!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: string[];
  @ApiProperty() rate_limit_rpm!: number;
  @ApiProperty({ nullable: true, type: Number }) daily_quota!: number | null;
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ example: '2026-11-22T08:04:11' }) created_at!: string;
}

export class IssuedKeyResponse extends KeyResponse {
  @ApiProperty({ description: 'The whole key. Shown only in this response: store it now.' })
  key!: string;
}

/** The fields every view of a key shares (spec 2.1 and the account's `api_key`). */
export function keySettings(key: ApiKeyEntity): Omit<KeyResponse, 'is_active' | 'created_at'> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    rate_limit_rpm: key.rateLimitRpm,
    daily_quota: key.dailyQuota,
  };
}

export function toKeyResponse(key: ApiKeyEntity): KeyResponse {
  return { ...keySettings(key), is_active: key.isActive, created_at: wireTime(key.createdAt) };
}

export function toIssuedKeyResponse(issued: { entity: ApiKeyEntity; secret: string }): IssuedKeyResponse {
  return { ...toKeyResponse(issued.entity), key: issued.secret };
}
