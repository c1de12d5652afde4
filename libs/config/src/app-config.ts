import { resolve } from 'node:path';

/** Prices in points (milli-USD) per unit, as decimals with at most three fraction digits. */
export interface PriceTable {
  pageBasic: string;
  pagePremium: string;
  imageBasic: string;
  imagePremium: string;
  audioSecond: string;
  videoSecond: string;
  refinementPage: string;
  xlsxBasicUnit: string;
  xlsxAdvancedUnit: string;
}

export interface AppConfig {
  env: 'development' | 'test' | 'production';
  logLevel: string;
  http: { port: number };
  database: { url: string };
  redis: { url: string; prefix: string };
  auth: { jwtSecret: string; jwtTtlSeconds: number };
  storage: { driver: 'local'; localDir: string; fileUrlSecret: string; signedUrlTtlSeconds: number };
  limits: {
    maxUploadBytes: number;
    maxPagesPerUpload: number;
    maxFilesPerUpload: number;
    maxUncompressedBytes: number;
    maxCompressionRatio: number;
  };
  pricing: { prices: PriceTable; freePagesPerMonth: number };
  worker: {
    concurrency: number;
    /** How long a worker's claim on a job lasts without renewal; a killed worker's job is taken over after it. */
    lockMs: number;
    /** How often workers look for jobs whose worker died. */
    stalledIntervalMs: number;
    /** A job still running after this long fails as refundable. */
    maxRuntimeSeconds: number;
  };
  payments: { stripeWebhookSecret: string | null; stripePointsPerUsd: number };
  usage: { flushIntervalMs: number };
  login: { maxAttemptsPerEmail: number; maxAttemptsPerAddress: number; windowSeconds: number };
}

/** The prices of DESIGN.md; every one can be overridden by its PRICE_* variable. */
export const DEFAULT_PRICES: PriceTable = {
  pageBasic: '10',
  pagePremium: '30',
  imageBasic: '10',
  imagePremium: '30',
  audioSecond: '0.1',
  videoSecond: '0.2',
  refinementPage: '3',
  xlsxBasicUnit: '1',
  xlsxAdvancedUnit: '3',
};

export const DEFAULT_STORAGE_DIR = resolve('.data', 'storage');
