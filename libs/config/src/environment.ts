import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/** A decimal price with at most three fraction digits, e.g. `10`, `0.1`, `2.125`. */
const PRICE = /^\d{1,9}(\.\d{1,3})?$/;
const PRICE_MESSAGE = 'must be a non-negative number with at most three decimals';

/**
 * Every environment variable the service reads. `.env.example` documents each one; the
 * process refuses to start while any is missing or malformed, naming all of them at once.
 */
export class Environment {
  @IsOptional()
  @IsIn(['development', 'test', 'production'])
  NODE_ENV?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL!: string;

  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_protocol: true })
  REDIS_URL!: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'must be 1-64 letters, digits or _.:-' })
  REDIS_PREFIX?: string;

  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters of random text' })
  JWT_SECRET!: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(30 * 24 * 3600)
  JWT_TTL_SECONDS?: number;

  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters of random text' })
  FILE_URL_SECRET!: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(7 * 24 * 3600)
  SIGNED_URL_TTL_SECONDS?: number;

  @IsOptional()
  @IsIn(['local'])
  STORAGE_DRIVER?: string;

  @IsOptional()
  @IsString()
  STORAGE_DIR?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_UPLOAD_BYTES?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_PAGES_PER_UPLOAD?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_FILES_PER_UPLOAD?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_UNCOMPRESSED_BYTES?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(2)
  MAX_COMPRESSION_RATIO?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  FREE_PAGES_PER_MONTH?: number;

  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_PAGE_BASIC?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_PAGE_PREMIUM?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_IMAGE_BASIC?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_IMAGE_PREMIUM?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_AUDIO_SECOND?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_VIDEO_SECOND?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_REFINEMENT_PAGE?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_XLSX_BASIC_UNIT?: string;
  @IsOptional() @Matches(PRICE, { message: PRICE_MESSAGE }) PRICE_XLSX_ADVANCED_UNIT?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_CONCURRENCY?: number;

  @IsOptional()
  @IsString()
  @Matches(/^whsec_/, { message: 'must be the Stripe webhook signing secret (whsec_…)' })
  STRIPE_WEBHOOK_SECRET?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  STRIPE_POINTS_PER_USD?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  USAGE_FLUSH_INTERVAL_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_MAX_ATTEMPTS_PER_EMAIL?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WORKER_LOCK_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WORKER_STALLED_INTERVAL_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  JOB_MAX_RUNTIME_SECONDS?: number;
}
