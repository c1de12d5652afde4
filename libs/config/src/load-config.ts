import 'reflect-metadata';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import {
  DEFAULT_CONSOLE_DIR,
  DEFAULT_PRICES,
  DEFAULT_SCRATCH_DIR,
  DEFAULT_STORAGE_DIR,
  type AppConfig,
  type HostRule,
  type PaymentSettings,
  type S3Settings,
  type StorageSettings,
} from './app-config';
import { QUEUE_NAMES, type QueueName } from '@docconv/contracts';
import { Environment } from './environment';

/** Raised when the environment is unusable; its message names every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Invalid configuration: ${problems.length} variable(s) need attention — ` +
        problems.map((p) => `${p.variable} ${p.message}`).join('; ') +
        '. See .env.example for what each variable means.',
    );
    this.name = 'ConfigError';
  }
}

function describe(error: ValidationError): { variable: string; message: string } {
  const value = (error.target as Record<string, unknown> | undefined)?.[error.property];
  const messages = Object.values(error.constraints ?? {}).map((m) => m.replace(`${error.property} `, ''));
  return {
    variable: error.property,
    message: value === undefined || value === '' ? 'is required' : messages.join(', '),
  };
}

/** Reads and validates the environment once. Throws ConfigError naming every bad variable. */
/**
 * The safety valve of an OCR'd page (OCR_PAGE_DEADLINE_SECONDS): a page still being read after this
 * is stopped and fails, not charged. Pages take seconds; this is for the pathological one.
 */
export const DEFAULT_OCR_PAGE_DEADLINE_SECONDS = 180;

/**
 * Threads each engine call of a worker may use (EasyOCR's and RapidOCR's ONNX Runtime, the speech
 * model): the worker's cores shared among its concurrent jobs, so that `concurrency` jobs at once
 * never start more threads than there are cores (two slots on two cores: one thread each).
 */
export function engineThreads(cores: number, concurrency: number): number {
  return Math.max(1, Math.floor(cores / concurrency));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = plainToInstance(Environment, present, { excludeExtraneousValues: false });
  const errors = validateSync(parsed, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(errors.map(describe));

  const e = parsed;
  const concurrency = e.WORKER_CONCURRENCY ?? availableParallelism();
  const mode = (e.NODE_ENV as AppConfig['env'] | undefined) ?? 'development';
  return {
    env: mode,
    publicBaseUrl: publicBaseUrl(mode, e.PUBLIC_BASE_URL),
    logLevel: e.LOG_LEVEL ?? 'info',
    logFormat: (e.LOG_FORMAT as AppConfig['logFormat'] | undefined) ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    http: {
      port: e.PORT ?? 3000,
      trustedProxies: (e.TRUSTED_PROXIES ?? 'loopback').split(',').map((entry) => entry.trim()),
      headersTimeoutMs: (e.HTTP_HEADERS_TIMEOUT_SECONDS ?? 20) * 1000,
      requestTimeoutMs: (e.HTTP_REQUEST_TIMEOUT_SECONDS ?? 900) * 1000,
      bodyStallMs: (e.HTTP_BODY_STALL_SECONDS ?? 60) * 1000,
    },
    scratchDir: resolve(e.SCRATCH_DIR ?? DEFAULT_SCRATCH_DIR),
    database: { url: e.DATABASE_URL },
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX ?? 'docconv' },
    auth: {
      jwtSecret: e.JWT_SECRET,
      jwtTtlSeconds: e.JWT_TTL_SECONDS ?? 900,
      sessionLifetimeSeconds: e.SESSION_LIFETIME_SECONDS ?? 30 * 24 * 3600,
      sessionRateLimitRpm: e.SESSION_RATE_LIMIT_RPM ?? 600,
    },
    storage: storageSettings(e),
    limits: {
      maxUploadBytes: e.MAX_UPLOAD_BYTES ?? 200 * 1024 * 1024,
      maxPagesPerUpload: e.MAX_PAGES_PER_UPLOAD ?? 10_000,
      maxFilesPerUpload: e.MAX_FILES_PER_UPLOAD ?? 1_000,
      maxUncompressedBytes: e.MAX_UNCOMPRESSED_BYTES ?? 1024 * 1024 * 1024,
      maxCompressionRatio: e.MAX_COMPRESSION_RATIO ?? 200,
      intake: {
        threads: e.INTAKE_THREADS ?? Math.min(2, availableParallelism()),
        memoryMb: e.INTAKE_MEMORY_MB ?? 512,
        timeoutMs: (e.INTAKE_TIMEOUT_SECONDS ?? 60) * 1000,
      },
    },
    pricing: {
      prices: {
        pageBasic: e.PRICE_PAGE_BASIC ?? DEFAULT_PRICES.pageBasic,
        pagePremium: e.PRICE_PAGE_PREMIUM ?? DEFAULT_PRICES.pagePremium,
        imageBasic: e.PRICE_IMAGE_BASIC ?? DEFAULT_PRICES.imageBasic,
        imagePremium: e.PRICE_IMAGE_PREMIUM ?? DEFAULT_PRICES.imagePremium,
        audioSecond: e.PRICE_AUDIO_SECOND ?? DEFAULT_PRICES.audioSecond,
        videoSecond: e.PRICE_VIDEO_SECOND ?? DEFAULT_PRICES.videoSecond,
        refinementPage: e.PRICE_REFINEMENT_PAGE ?? DEFAULT_PRICES.refinementPage,
        xlsxBasicUnit: e.PRICE_XLSX_BASIC_UNIT ?? DEFAULT_PRICES.xlsxBasicUnit,
        xlsxAdvancedUnit: e.PRICE_XLSX_ADVANCED_UNIT ?? DEFAULT_PRICES.xlsxAdvancedUnit,
      },
      freePagesPerMonth: e.FREE_PAGES_PER_MONTH ?? 100,
    },
    worker: {
      concurrency,
      fairness: (e.FAIR_QUEUEING as AppConfig['worker']['fairness'] | undefined) ?? 'per-user',
      fanOutMinPages: e.FANOUT_MIN_PAGES ?? 20,
      queues: e.WORKER_QUEUES
        ? [...new Set(e.WORKER_QUEUES.split(',').map((name) => name.trim() as QueueName))]
        : [...QUEUE_NAMES],
      lockMs: e.WORKER_LOCK_MS ?? 30_000,
      stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS ?? 30_000,
      maxStalledCount: e.WORKER_MAX_STALLED_COUNT ?? 3,
      maxRuntimeSeconds: e.JOB_MAX_RUNTIME_SECONDS ?? 3600,
      threadMemoryMb: e.WORKER_THREAD_MEMORY_MB ?? 3072,
    },
    operator: { adminToken: e.ADMIN_TOKEN ?? null, workerMetricsPort: e.WORKER_METRICS_PORT ?? null },
    conversions: { xlsxAdvancedWaitSeconds: e.XLSX_ADVANCED_WAIT_SECONDS ?? 60 },
    engines: {
      enginesPython: e.ENGINES_PYTHON ?? null,
      ocrPageDeadlineSeconds: e.OCR_PAGE_DEADLINE_SECONDS ?? DEFAULT_OCR_PAGE_DEADLINE_SECONDS,
      whisperModelPath: e.WHISPER_MODEL_PATH ? resolve(e.WHISPER_MODEL_PATH) : null,
      threads: e.ENGINE_THREADS ?? engineThreads(availableParallelism(), concurrency),
      llm:
        e.LLM_BASE_URL && e.LLM_MODEL
          ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY ?? '', model: e.LLM_MODEL }
          : null,
    },
    payments: paymentSettings(e),
    usage: { flushIntervalMs: e.USAGE_FLUSH_INTERVAL_MS ?? 5_000 },
    login: {
      freeFailures: e.LOGIN_FREE_FAILURES ?? 5,
      maxDelaySeconds: e.LOGIN_MAX_DELAY_SECONDS ?? 15 * 60,
      maxFailuresPerAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS ?? 30,
      windowSeconds: 15 * 60,
    },
    signup: { maxPerAddress: e.SIGNUP_MAX_PER_ADDRESS ?? 10, windowSeconds: 60 * 60 },
    webhooks: {
      allowedHttpHosts: hostRules('WEBHOOK_ALLOWED_HTTP_HOSTS', e.WEBHOOK_ALLOWED_HTTP_HOSTS),
      allowedPrivateHosts: hostRules('WEBHOOK_ALLOWED_PRIVATE_HOSTS', e.WEBHOOK_ALLOWED_PRIVATE_HOSTS),
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS ?? 10_000,
    },
    console: { dir: resolve(e.CONSOLE_DIR ?? DEFAULT_CONSOLE_DIR) },
  };
}

/**
 * Reads a validated `host[:port],…` list. Hosts are normalised the way a URL's `hostname`
 * is (lower case, IPv6 in brackets), so a rule compares equal to the URL it is meant for.
 */
export function hostRules(variable: string, list: string | undefined): HostRule[] {
  if (!list) return [];
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [, host, port] = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry) ?? [];
      const portNumber = port === undefined ? null : Number(port);
      if (host === undefined || !URL.canParse(`http://${host}`) || (portNumber !== null && portNumber > 65535)) {
        throw new ConfigError([{ variable, message: `has an entry that is not a host or host:port: ${entry}` }]);
      }
      return { hostname: new URL(`http://${host}`).hostname, port: portNumber };
    });
}

/**
 * Where clients reach the service, as the operator says: a link never takes its origin from a
 * request (`Host`, `X-Forwarded-Host`, `Origin` are the client's to choose). In production the
 * service does not start without it, since Stripe Checkout's return needs an absolute URL.
 */
function publicBaseUrl(env: AppConfig['env'], configured: string | undefined): string | null {
  if (configured) return configured.replace(/\/+$/, '');
  if (env !== 'production') return null;
  throw new ConfigError([
    {
      variable: 'PUBLIC_BASE_URL',
      message:
        'is required when NODE_ENV=production: set it to the address clients reach the service at (e.g. https://docconv.example.com). ' +
        'Download links, the Stripe Checkout return and the API document start with it; they are never built from the Host, X-Forwarded-Host or Origin a request sends',
    },
  ]);
}

/** Stripe's keys and where its API is, and the amounts a checkout may be for. */
function paymentSettings(e: Environment): PaymentSettings {
  const checkoutMinUsd = e.CHECKOUT_MIN_USD ?? 5;
  const checkoutMaxUsd = e.CHECKOUT_MAX_USD ?? 500;
  if (checkoutMaxUsd < checkoutMinUsd) {
    throw new ConfigError([
      { variable: 'CHECKOUT_MAX_USD', message: `must be at least CHECKOUT_MIN_USD (${checkoutMinUsd})` },
    ]);
  }
  const base = e.STRIPE_API_BASE ? new URL(e.STRIPE_API_BASE) : null;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return {
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
    stripePointsPerUsd: e.STRIPE_POINTS_PER_USD ?? 1000,
    stripeSecretKey: e.STRIPE_SECRET_KEY ?? null,
    stripeApiBase: base && {
      protocol,
      host: base.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: base.port ? Number(base.port) : protocol === 'http' ? 80 : 443,
    },
    checkoutMinUsd,
    checkoutMaxUsd,
  };
}

/** The storage part of the configuration; the S3 settings only when the driver is `s3`. */
function storageSettings(e: Environment): StorageSettings {
  const driver = e.STORAGE_DRIVER === 's3' ? 's3' : 'local';
  return {
    driver,
    localDir: resolve(e.STORAGE_DIR ?? DEFAULT_STORAGE_DIR),
    fileUrlSecret: e.FILE_URL_SECRET,
    signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS ?? 900,
    s3: driver === 's3' ? s3Settings(e) : null,
  };
}

/** Validation has already required the bucket and credentials when the driver is `s3`. */
function s3Settings(e: Environment): S3Settings {
  const endpoint = e.S3_ENDPOINT ?? null;
  return {
    endpoint,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT ?? null,
    region: e.S3_REGION ?? 'us-east-1',
    bucket: e.S3_BUCKET!,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? endpoint !== null,
    prefix: e.S3_PREFIX ?? '',
  };
}
