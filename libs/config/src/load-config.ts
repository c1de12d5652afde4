import 'reflect-metadata';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { DEFAULT_PRICES, DEFAULT_STORAGE_DIR, type AppConfig } from './app-config';
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
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = plainToInstance(Environment, present, { excludeExtraneousValues: false });
  const errors = validateSync(parsed, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(errors.map(describe));

  const e = parsed;
  return {
    env: (e.NODE_ENV as AppConfig['env'] | undefined) ?? 'development',
    logLevel: e.LOG_LEVEL ?? 'info',
    http: { port: e.PORT ?? 3000 },
    database: { url: e.DATABASE_URL },
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX ?? 'docconv' },
    auth: { jwtSecret: e.JWT_SECRET, jwtTtlSeconds: e.JWT_TTL_SECONDS ?? 3600 },
    storage: {
      driver: 'local',
      localDir: resolve(e.STORAGE_DIR ?? DEFAULT_STORAGE_DIR),
      fileUrlSecret: e.FILE_URL_SECRET,
      signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS ?? 900,
    },
    limits: {
      maxUploadBytes: e.MAX_UPLOAD_BYTES ?? 200 * 1024 * 1024,
      maxPagesPerUpload: e.MAX_PAGES_PER_UPLOAD ?? 10_000,
      maxFilesPerUpload: e.MAX_FILES_PER_UPLOAD ?? 1_000,
      maxUncompressedBytes: e.MAX_UNCOMPRESSED_BYTES ?? 1024 * 1024 * 1024,
      maxCompressionRatio: e.MAX_COMPRESSION_RATIO ?? 200,
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
      concurrency: e.WORKER_CONCURRENCY ?? availableParallelism(),
      lockMs: e.WORKER_LOCK_MS ?? 30_000,
      stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS ?? 30_000,
      maxRuntimeSeconds: e.JOB_MAX_RUNTIME_SECONDS ?? 3600,
    },
    payments: {
      stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
      stripePointsPerUsd: e.STRIPE_POINTS_PER_USD ?? 1000,
    },
    usage: { flushIntervalMs: e.USAGE_FLUSH_INTERVAL_MS ?? 5_000 },
    login: {
      maxAttemptsPerEmail: e.LOGIN_MAX_ATTEMPTS_PER_EMAIL ?? 10,
      maxAttemptsPerAddress: e.LOGIN_MAX_ATTEMPTS_PER_ADDRESS ?? 100,
      windowSeconds: 15 * 60,
    },
  };
}
