import { Transform } from 'class-transformer';
import { OptionalHttpUrl, OptionalInt, toBoolean } from './env-decorators';
import { QUEUE_NAMES } from '@docconv/contracts';
import { IsBoolean, IsIn, IsOptional, IsString, IsUrl, Matches, MinLength, ValidateIf } from 'class-validator';

/** The bucket and its credentials are required only when files are kept in S3. */
const usesS3 = (environment: Environment): boolean => environment.STORAGE_DRIVER === 's3';

/** A decimal price with at most three fraction digits, e.g. `10`, `0.1`, `2.125`. */
const PRICE = /^\d{1,9}(\.\d{1,3})?$/;
const PRICE_MESSAGE = 'must be a non-negative number with at most three decimals';

/** Comma-separated `host` or `host:port` entries (IPv6 hosts in brackets), e.g. `hooks.internal,127.0.0.1:8080`. */
const HOST_LIST =
  /^\s*(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?\s*(,\s*(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?\s*)*$/;
const HOST_LIST_MESSAGE = 'must be comma-separated host or host:port entries, e.g. hooks.internal,127.0.0.1:8080';

/** A comma-separated list of the contract's queue names. */
const QUEUE_NAME = `(${QUEUE_NAMES.join('|')})`;
const QUEUE_LIST = new RegExp(`^\\s*${QUEUE_NAME}\\s*(,\\s*${QUEUE_NAME}\\s*)*$`);

/** Comma-separated proxy addresses: `loopback`, `linklocal`, `uniquelocal`, IPs and CIDR ranges. */
const PROXY_LIST =
  /^\s*(loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(\/\d{1,3})?)\s*(,\s*(loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(\/\d{1,3})?)\s*)*$/;
const PROXY_LIST_MESSAGE =
  'must be comma-separated proxy addresses: loopback, linklocal, uniquelocal, IP addresses or CIDR ranges, e.g. loopback,10.0.0.0/8';

/**
 * Every environment variable the service reads. `.env.example` documents each one; the
 * process refuses to start while any is missing or malformed, naming all of them at once.
 */
export class Environment {
  @IsOptional()
  @IsIn(['development', 'test', 'production'])
  NODE_ENV?: string;

  @OptionalInt(0, 65535)
  PORT?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: string;

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

  @OptionalInt(60, 3600)
  JWT_TTL_SECONDS?: number;

  @OptionalInt(3600, 365 * 24 * 3600)
  SESSION_LIFETIME_SECONDS?: number;

  @OptionalInt(1, 100_000)
  SESSION_RATE_LIMIT_RPM?: number;

  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters of random text' })
  FILE_URL_SECRET!: string;

  @OptionalInt(10, 7 * 24 * 3600)
  SIGNED_URL_TTL_SECONDS?: number;

  @IsOptional()
  @IsIn(['local', 's3'])
  STORAGE_DRIVER?: string;

  @IsOptional()
  @IsString()
  STORAGE_DIR?: string;

  @OptionalHttpUrl()
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @IsString()
  CONSOLE_DIR?: string;

  @OptionalHttpUrl()
  S3_ENDPOINT?: string;

  @OptionalHttpUrl()
  S3_PUBLIC_ENDPOINT?: string;

  @IsOptional()
  @Matches(/^[a-z0-9-]{1,64}$/, { message: 'must be a region name such as us-east-1' })
  S3_REGION?: string;

  @ValidateIf(usesS3)
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
    message: 'must be a bucket name: 3-63 lowercase letters, digits, . or -',
  })
  S3_BUCKET?: string;

  @ValidateIf(usesS3)
  @IsString()
  @MinLength(1)
  S3_ACCESS_KEY_ID?: string;

  @ValidateIf(usesS3)
  @IsString()
  @MinLength(1)
  S3_SECRET_ACCESS_KEY?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  S3_FORCE_PATH_STYLE?: boolean;

  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, {
    message: 'must be folder names separated by /, without a leading or trailing /',
  })
  S3_PREFIX?: string;

  @OptionalInt(1)
  MAX_UPLOAD_BYTES?: number;

  @OptionalInt(1)
  MAX_PAGES_PER_UPLOAD?: number;

  @OptionalInt(1)
  MAX_FILES_PER_UPLOAD?: number;

  @OptionalInt(1)
  MAX_UNCOMPRESSED_BYTES?: number;

  @OptionalInt(2)
  MAX_COMPRESSION_RATIO?: number;

  @OptionalInt(1, 64)
  INTAKE_THREADS?: number;

  @OptionalInt(64, 16384)
  INTAKE_MEMORY_MB?: number;

  @OptionalInt(1, 3600)
  INTAKE_TIMEOUT_SECONDS?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  SCRATCH_DIR?: string;

  @OptionalInt(1, 600)
  HTTP_HEADERS_TIMEOUT_SECONDS?: number;

  @IsOptional()
  @Matches(PROXY_LIST, { message: PROXY_LIST_MESSAGE })
  TRUSTED_PROXIES?: string;

  @OptionalInt(10, 86400)
  HTTP_REQUEST_TIMEOUT_SECONDS?: number;

  @OptionalInt(1, 3600)
  HTTP_BODY_STALL_SECONDS?: number;

  @OptionalInt(0)
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

  @OptionalInt(1, 64)
  WORKER_CONCURRENCY?: number;

  @IsOptional()
  @IsIn(['per-user', 'off'])
  FAIR_QUEUEING?: string;

  @OptionalInt(0, 100_000)
  FANOUT_MIN_PAGES?: number;

  @IsOptional()
  @Matches(QUEUE_LIST, { message: `must be comma-separated queue names of ${QUEUE_NAMES.join(', ')}` })
  WORKER_QUEUES?: string;

  @IsOptional()
  @IsString()
  @Matches(/^whsec_/, { message: 'must be the Stripe webhook signing secret (whsec_…)' })
  STRIPE_WEBHOOK_SECRET?: string;

  @OptionalInt(1)
  STRIPE_POINTS_PER_USD?: number;

  @IsOptional()
  @IsString()
  @Matches(/^(sk|rk)_[A-Za-z0-9_]+$/, { message: 'must be a Stripe secret or restricted key (sk_… or rk_…)' })
  STRIPE_SECRET_KEY?: string;

  @OptionalHttpUrl()
  STRIPE_API_BASE?: string;

  @OptionalInt(1, 100_000)
  CHECKOUT_MIN_USD?: number;

  @OptionalInt(1, 100_000)
  CHECKOUT_MAX_USD?: number;

  @OptionalInt(100, 60_000)
  USAGE_FLUSH_INTERVAL_MS?: number;

  @OptionalInt(1, 100)
  LOGIN_FREE_FAILURES?: number;

  @OptionalInt(1, 86400)
  LOGIN_MAX_DELAY_SECONDS?: number;

  @OptionalInt(1)
  LOGIN_MAX_FAILURES_PER_ADDRESS?: number;

  @OptionalInt(1)
  SIGNUP_MAX_PER_ADDRESS?: number;

  @OptionalInt(1000)
  WORKER_LOCK_MS?: number;

  @OptionalInt(1000)
  WORKER_STALLED_INTERVAL_MS?: number;

  @OptionalInt(0, 100)
  WORKER_MAX_STALLED_COUNT?: number;

  @OptionalInt(10)
  JOB_MAX_RUNTIME_SECONDS?: number;

  @OptionalInt(128, 65_536)
  WORKER_THREAD_MEMORY_MB?: number;

  @OptionalInt(1, 600)
  XLSX_ADVANCED_WAIT_SECONDS?: number;

  @IsOptional()
  @IsString()
  @MinLength(24, { message: 'must be at least 24 characters: it guards the operator endpoints' })
  ADMIN_TOKEN?: string;

  @OptionalInt(0, 65535)
  WORKER_METRICS_PORT?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  ENGINES_PYTHON?: string;

  @OptionalInt(1, 3600)
  OCR_PAGE_DEADLINE_SECONDS?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  WHISPER_MODEL_PATH?: string;

  @OptionalInt(1, 64)
  ENGINE_THREADS?: number;

  @OptionalHttpUrl()
  LLM_BASE_URL?: string;

  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  LLM_MODEL?: string;

  @IsOptional()
  @Matches(HOST_LIST, { message: HOST_LIST_MESSAGE })
  WEBHOOK_ALLOWED_HTTP_HOSTS?: string;

  @IsOptional()
  @Matches(HOST_LIST, { message: HOST_LIST_MESSAGE })
  WEBHOOK_ALLOWED_PRIVATE_HOSTS?: string;

  @OptionalInt(10, 3_600_000)
  WEBHOOK_RETRY_BASE_MS?: number;
}
