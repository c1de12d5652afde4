import type { QueueName } from '@docconv/contracts';
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

/** Where inputs and results are kept, and how download links to them are made. */
export interface StorageSettings {
  driver: StorageDriver;
  /** Root folder of the local-disk store. */
  localDir: string;
  /** Signs the local-disk store's download links (`/api/v1/files/…`). */
  fileUrlSecret: string;
  /** How long a download link stays valid unless the caller asks otherwise. */
  signedUrlTtlSeconds: number;
  /** The bucket, when the driver is `s3`; null otherwise. */
  s3: S3Settings | null;
}

export type StorageDriver = 'local' | 's3';

/** An S3-compatible bucket: AWS S3 itself, or MinIO and the like through a custom endpoint. */
export interface S3Settings {
  /** A custom endpoint such as `http://minio:9000`; null means AWS S3. */
  endpoint: string | null;
  /** The endpoint download links are made for, when browsers reach the store by another address than the services do. */
  publicEndpoint: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `http://endpoint/bucket/key` rather than `http://bucket.endpoint/key`, as MinIO needs. */
  forcePathStyle: boolean;
  /** Folder every key is kept under, so deployments can share a bucket; '' for the bucket root. */
  prefix: string;
}

export interface AppConfig {
  env: 'development' | 'test' | 'production';
  /**
   * `PUBLIC_BASE_URL` without a trailing slash, e.g. `https://docconv.example.com`: the only origin an
   * absolute link the service hands out may start with (see `publicUrl`); null outside production
   * when unset, and links are then path-absolute.
   */
  publicBaseUrl: string | null;
  logLevel: string;
  /** One JSON object a line (the default off a terminal: files, Docker, Kubernetes), or coloured lines for a person. */
  logFormat: 'json' | 'pretty';
  http: {
    port: number;
    /**
     * Proxies whose `X-Forwarded-For` names the client (rate limits and sign-up caps count per
     * client address): proxy-addr names (`loopback`, `uniquelocal`, …), addresses, CIDR ranges.
     */
    trustedProxies: string[];
    /** A client must have sent its request line and headers within this long. */
    headersTimeoutMs: number;
    /** A client must have sent its whole request (an upload's body included) within this long. */
    requestTimeoutMs: number;
    /** An upload whose body stops arriving for this long is cut off. */
    bodyStallMs: number;
  };
  /** Each process's temporary files live in a folder of its own under this root (see claimScratchFolder). */
  scratchDir: string;
  database: { url: string };
  redis: { url: string; prefix: string };
  /**
   * Session tokens: how long one lasts (a tab refreshes it before then), and how many requests a
   * minute one user's sessions may make together (API keys have their own `rate_limit_rpm`).
   */
  auth: {
    jwtSecret: string;
    /** An access token's lifetime, and the longest one the verifier accepts. */
    jwtTtlSeconds: number;
    /** A session's lifetime from its log-in: past it, refresh is refused. */
    sessionLifetimeSeconds: number;
    sessionRateLimitRpm: number;
  };
  /**
   * The operator's side: `GET /metrics` and the queue view at `/admin/queues` answer only to
   * `adminToken` (off while it is unset); each worker serves its metrics on `workerMetricsPort`
   * (off while unset; 0 picks a free port).
   */
  operator: { adminToken: string | null; workerMetricsPort: number | null };
  storage: StorageSettings;
  limits: {
    maxUploadBytes: number;
    maxPagesPerUpload: number;
    maxFilesPerUpload: number;
    maxUncompressedBytes: number;
    maxCompressionRatio: number;
    /** Upload inspection: threads, the heap each may use, and how long one upload's inspection may take. */
    intake: { threads: number; memoryMb: number; timeoutMs: number };
  };
  pricing: { prices: PriceTable; freePagesPerMonth: number };
  worker: {
    concurrency: number;
    /** The queues this worker takes jobs from (all by default): worker pools per kind of work. */
    queues: QueueName[];
    /**
     * `per-user`: a parse job waits behind the pages its owner already has queued or running,
     * so one user's backlog cannot hold back another's jobs; `off`: first come, first served.
     */
    fairness: 'per-user' | 'off';
    /**
     * A job of one PDF with scanned pages and at least this many pages (text PDFs from 1,000
     * pages) is read in page ranges by every worker slot serving the parse queue at once, then
     * laid out as one document; 0 reads every job whole.
     */
    fanOutMinPages: number;
    /** How long a worker's claim on a job lasts without renewal; a killed worker's job is taken over after it. */
    lockMs: number;
    /** How often workers look for jobs whose worker died. */
    stalledIntervalMs: number;
    /** How many times a job may be taken over from a dead worker; once more and the queue gives up on it (the sweep then fails it, refundable). */
    maxStalledCount: number;
    /** A job still running after this long fails as refundable. */
    maxRuntimeSeconds: number;
    /** Heap of one extraction thread: a file that needs more fails alone, the worker goes on. */
    threadMemoryMb: number;
  };
  conversions: {
    /** How long `POST /jobs/{id}/convert` waits for an XLSX Advanced run before answering "still running". */
    xlsxAdvancedWaitSeconds: number;
  };
  /** Engines that live outside Node's packages; each is off while its variables are unset. */
  engines: {
    /** A Python that has `easyocr` and its weights. */
    enginesPython: string | null;
    /** The safety valve of an OCR'd page: one still being read after this many seconds is stopped and fails, not charged. */
    ocrPageDeadlineSeconds: number;
    /** A whisper.cpp (ggml) model file, loaded once when the worker starts. */
    whisperModelPath: string | null;
    /**
     * Threads each engine call may use (ONNX Runtime's for EasyOCR and RapidOCR, the speech model's):
     * the worker's cores over its concurrency (engineThreads), unless ENGINE_THREADS says otherwise.
     */
    threads: number;
    /** An OpenAI-compatible chat-completions service for layout refinement. */
    llm: { baseUrl: string; apiKey: string; model: string } | null;
  };
  payments: PaymentSettings;
  usage: { flushIntervalMs: number };
  login: {
    /** Failed logins for one email from one client before each further attempt has to wait. */
    freeFailures: number;
    /** The longest such wait; waits double from one second up to it. */
    maxDelaySeconds: number;
    /** Failed logins one client may make, whatever the emails, within the window. */
    maxFailuresPerAddress: number;
    windowSeconds: number;
  };
  signup: { maxPerAddress: number; windowSeconds: number };
  webhooks: WebhookSettings;
  /** The web console's static build, served at `/` beside the API when it holds an index.html. */
  console: { dir: string };
}

/** Buying credits through Stripe Checkout, and crediting the payments Stripe reports. */
export interface PaymentSettings {
  /** Verifies `POST /payments/stripe/webhook`; null: the webhook answers 503. */
  stripeWebhookSecret: string | null;
  stripePointsPerUsd: number;
  /** Creates Checkout Sessions; null: `POST /payments/checkout` answers 503. */
  stripeSecretKey: string | null;
  /** Where Stripe's API is reached instead of api.stripe.com (stripe-mock in tests); null: Stripe itself. */
  stripeApiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
  /** The whole-dollar amounts a checkout may be for, inclusive. */
  checkoutMinUsd: number;
  checkoutMaxUsd: number;
}

/** A `host` or `host:port` entry of an allow-list; `port` null matches every port of the host. */
export interface HostRule {
  /** Lower-case, as a URL's `hostname` shows it (IPv6 in brackets). */
  hostname: string;
  port: number | null;
}

/** Where job callbacks may be sent, and how failed deliveries are retried. */
export interface WebhookSettings {
  /** Hosts a callback may reach over plain http; every other callback must use https. */
  allowedHttpHosts: HostRule[];
  /** Hosts a callback may reach even though they resolve to private, loopback or other non-public addresses. */
  allowedPrivateHosts: HostRule[];
  /** Delay before the first retry of a failed delivery; each later retry waits three times longer, up to an hour. */
  retryBaseMs: number;
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
export const DEFAULT_SCRATCH_DIR = resolve('.data', 'scratch');

/** Where the web console's build is looked for unless CONSOLE_DIR says otherwise. */
export const DEFAULT_CONSOLE_DIR = resolve('dist', 'console');
