import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './load-config';

const valid = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/docconv',
  REDIS_URL: 'redis://127.0.0.1:6379',
  JWT_SECRET: 'x'.repeat(32),
  FILE_URL_SECRET: 'y'.repeat(32),
};

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(valid);
    expect(config.http.port).toBe(3000);
    expect(config.limits.maxUploadBytes).toBe(200 * 1024 * 1024);
    expect(config.limits.maxPagesPerUpload).toBe(10_000);
    expect(config.pricing.prices.audioSecond).toBe('0.1');
    expect(config.pricing.freePagesPerMonth).toBe(100);
  });

  it('reads overrides with their types', () => {
    const config = loadConfig({ ...valid, PORT: '8080', PRICE_PAGE_BASIC: '12.5', WORKER_CONCURRENCY: '3' });
    expect(config.http.port).toBe(8080);
    expect(config.pricing.prices.pageBasic).toBe('12.5');
    expect(config.worker.concurrency).toBe(3);
  });

  it('names every missing or malformed variable in one error', () => {
    const attempt = (): unknown =>
      loadConfig({ DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', PORT: 'eighty', PRICE_PAGE_BASIC: '-1' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const names = (error as ConfigError).problems.map((p) => p.variable).sort();
      expect(names).toEqual(['DATABASE_URL', 'FILE_URL_SECRET', 'JWT_SECRET', 'PORT', 'PRICE_PAGE_BASIC', 'REDIS_URL']);
      expect((error as Error).message).toContain('REDIS_URL is required');
      expect((error as Error).message).toContain('JWT_SECRET must be at least 32 characters');
    }
  });
});

describe('loadConfig: storage', () => {
  const s3 = {
    ...valid,
    STORAGE_DRIVER: 's3',
    S3_BUCKET: 'docconv-files',
    S3_ACCESS_KEY_ID: 'key-id',
    S3_SECRET_ACCESS_KEY: 'secret',
  };

  it('keeps files on local disk with path-absolute download links by default', () => {
    const { storage } = loadConfig(valid);
    expect(storage.driver).toBe('local');
    expect(storage.signedUrlTtlSeconds).toBe(900);
    expect(storage.s3).toBeNull();
  });

  it('reads the public base URL without its trailing slash; none outside production makes links path-absolute', () => {
    expect(loadConfig({ ...valid, PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe(
      'https://api.example.com',
    );
    expect(loadConfig(valid).publicBaseUrl).toBeNull();
    expect(loadConfig({ ...valid, NODE_ENV: 'development' }).publicBaseUrl).toBeNull();
  });

  it('refuses to run in production without a public base URL, saying what it is for', () => {
    expect(() => loadConfig({ ...valid, NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...valid, NODE_ENV: 'production' })).toThrow(
      /PUBLIC_BASE_URL is required when NODE_ENV=production: .*never built from the Host, X-Forwarded-Host or Origin/,
    );
    expect(
      loadConfig({ ...valid, NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://docconv.example.com' }),
    ).toMatchObject({ env: 'production', publicBaseUrl: 'https://docconv.example.com' });
  });

  it('names every missing S3 variable at once when the driver is s3', () => {
    try {
      loadConfig({ ...valid, STORAGE_DRIVER: 's3' });
      throw new Error('the configuration was accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        { variable: 'S3_BUCKET', message: 'is required' },
        { variable: 'S3_ACCESS_KEY_ID', message: 'is required' },
        { variable: 'S3_SECRET_ACCESS_KEY', message: 'is required' },
      ]);
    }
  });

  it('reads AWS S3 settings with their defaults', () => {
    expect(loadConfig(s3).storage.s3).toEqual({
      endpoint: null,
      publicEndpoint: null,
      region: 'us-east-1',
      bucket: 'docconv-files',
      accessKeyId: 'key-id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('uses path-style addressing for a custom endpoint unless told otherwise', () => {
    const minio = { ...s3, S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'http://localhost:9000' };
    expect(loadConfig(minio).storage.s3).toMatchObject({
      endpoint: 'http://minio:9000',
      publicEndpoint: 'http://localhost:9000',
      forcePathStyle: true,
    });
    expect(loadConfig({ ...minio, S3_FORCE_PATH_STYLE: 'false' }).storage.s3?.forcePathStyle).toBe(false);
  });

  it('refuses malformed S3 settings, naming each', () => {
    const attempt = (): unknown =>
      loadConfig({
        ...s3,
        S3_ENDPOINT: 'minio:9000',
        S3_FORCE_PATH_STYLE: 'yes',
        S3_PREFIX: '/docconv/',
        S3_BUCKET: 'A',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const names = (error as ConfigError).problems.map((p) => p.variable).sort();
      expect(names).toEqual(['S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX']);
    }
  });

  it('ignores the S3 variables while files stay on local disk', () => {
    expect(loadConfig({ ...valid, S3_BUCKET: 'docconv-files' }).storage.s3).toBeNull();
  });
});

describe('loadConfig: webhooks', () => {
  it('allows no plain-http or private callback hosts, and retries after 10 s, by default', () => {
    expect(loadConfig(valid).webhooks).toEqual({ allowedHttpHosts: [], allowedPrivateHosts: [], retryBaseMs: 10_000 });
  });

  it('reads host and host:port entries the way a URL names its host', () => {
    const { webhooks } = loadConfig({
      ...valid,
      WEBHOOK_ALLOWED_HTTP_HOSTS: ' Hooks.Internal , 127.0.0.1:8080,[::1]:9000',
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost',
      WEBHOOK_RETRY_BASE_MS: '200',
    });
    expect(webhooks.allowedHttpHosts).toEqual([
      { hostname: 'hooks.internal', port: null },
      { hostname: '127.0.0.1', port: 8080 },
      { hostname: '[::1]', port: 9000 },
    ]);
    expect(webhooks.allowedPrivateHosts).toEqual([{ hostname: 'localhost', port: null }]);
    expect(webhooks.retryBaseMs).toBe(200);
  });

  it('refuses host lists that are not host[:port] entries', () => {
    for (const list of ['http://hooks.internal', 'a b', 'hooks.internal:99999', '[:::]']) {
      expect(() => loadConfig({ ...valid, WEBHOOK_ALLOWED_HTTP_HOSTS: list })).toThrow(/WEBHOOK_ALLOWED_HTTP_HOSTS/);
    }
  });
});

describe('loadConfig: console', () => {
  it('looks for the console build in dist/console under the working directory by default', () => {
    expect(loadConfig(valid).console).toEqual({ dir: resolve(process.cwd(), 'dist', 'console') });
  });

  it('resolves CONSOLE_DIR against the working directory', () => {
    expect(loadConfig({ ...valid, CONSOLE_DIR: 'apps/console/dist' }).console.dir).toBe(
      resolve(process.cwd(), 'apps', 'console', 'dist'),
    );
    expect(loadConfig({ ...valid, CONSOLE_DIR: '/srv/console' }).console.dir).toBe('/srv/console');
  });
});

describe('loadConfig: proxies and the operator', () => {
  it('trusts the same host as a proxy unless told otherwise', () => {
    expect(loadConfig(valid).http.trustedProxies).toEqual(['loopback']);
    expect(loadConfig({ ...valid, TRUSTED_PROXIES: 'loopback, 10.0.0.0/8,fd00::/8' }).http.trustedProxies).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
  });

  it('refuses a proxy list that is not addresses, ranges or proxy-addr names', () => {
    for (const list of ['anywhere', 'loopback;10.0.0.1', '10.0.0.0/8 10.0.0.1', 'http://proxy']) {
      expect(() => loadConfig({ ...valid, TRUSTED_PROXIES: list })).toThrow(/TRUSTED_PROXIES must be comma-separated/);
    }
  });

  it('keeps the operator endpoints off until an admin token of 24 characters or more is set', () => {
    expect(loadConfig(valid).operator).toEqual({ adminToken: null, workerMetricsPort: null });
    expect(() => loadConfig({ ...valid, ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN must be at least 24 characters/);
    const on = loadConfig({ ...valid, ADMIN_TOKEN: 'a'.repeat(24), WORKER_METRICS_PORT: '9464' });
    expect(on.operator).toEqual({ adminToken: 'a'.repeat(24), workerMetricsPort: 9464 });
  });
});

describe('loadConfig: worker queues', () => {
  it('serves every queue unless told which', () => {
    expect(loadConfig(valid).worker.queues).toEqual([
      'parse',
      'office',
      'speech',
      'conversions',
      'maintenance',
      'webhooks',
    ]);
    expect(loadConfig({ ...valid, WORKER_QUEUES: 'conversions, webhooks,conversions' }).worker.queues).toEqual([
      'conversions',
      'webhooks',
    ]);
  });

  it('refuses a queue the contract does not have', () => {
    expect(() => loadConfig({ ...valid, WORKER_QUEUES: 'parse,ocr' })).toThrow(
      /WORKER_QUEUES must be comma-separated queue names of parse, office, speech, conversions, maintenance, webhooks/,
    );
  });
});

describe('loadConfig: fair queueing', () => {
  it('queues per user by default, first come first served when turned off, and nothing else', () => {
    expect(loadConfig(valid).worker.fairness).toBe('per-user');
    expect(loadConfig({ ...valid, FAIR_QUEUEING: 'off' }).worker.fairness).toBe('off');
    expect(() => loadConfig({ ...valid, FAIR_QUEUEING: 'round-robin' })).toThrow(/FAIR_QUEUEING/);
  });

  it('spreads scanned PDFs of 20 pages or more over page ranges by default; 0 reads every job whole', () => {
    expect(loadConfig(valid).worker.fanOutMinPages).toBe(20);
    expect(loadConfig({ ...valid, FANOUT_MIN_PAGES: '0' }).worker.fanOutMinPages).toBe(0);
    expect(() => loadConfig({ ...valid, FANOUT_MIN_PAGES: '-1' })).toThrow(/FANOUT_MIN_PAGES/);
  });
});

describe('loadConfig: payments', () => {
  it('sells nothing by default; checkouts of $5 to $500 at 1000 points a dollar', () => {
    expect(loadConfig(valid).payments).toEqual({
      stripeWebhookSecret: null,
      stripePointsPerUsd: 1000,
      stripeSecretKey: null,
      stripeApiBase: null,
      checkoutMinUsd: 5,
      checkoutMaxUsd: 500,
    });
  });

  it('reads the secret key, an API base such as stripe-mock, and the bounds', () => {
    const payments = loadConfig({
      ...valid,
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      CHECKOUT_MIN_USD: '1',
      CHECKOUT_MAX_USD: '1000',
    }).payments;
    expect(payments).toMatchObject({
      stripeSecretKey: 'sk_test_abc',
      stripeApiBase: { protocol: 'http', host: '127.0.0.1', port: 12111 },
      checkoutMinUsd: 1,
      checkoutMaxUsd: 1000,
    });
    expect(loadConfig({ ...valid, STRIPE_API_BASE: 'https://stripe.internal' }).payments.stripeApiBase).toEqual({
      protocol: 'https',
      host: 'stripe.internal',
      port: 443,
    });
  });

  it('refuses a key that is not a secret key, bounds out of order and a base that is not a URL', () => {
    expect(() => loadConfig({ ...valid, STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ ...valid, CHECKOUT_MIN_USD: '50', CHECKOUT_MAX_USD: '10' })).toThrow(
      /CHECKOUT_MAX_USD must be at least CHECKOUT_MIN_USD \(50\)/,
    );
    expect(() => loadConfig({ ...valid, CHECKOUT_MIN_USD: '0' })).toThrow(/CHECKOUT_MIN_USD/);
    expect(() => loadConfig({ ...valid, STRIPE_API_BASE: 'stripe-mock' })).toThrow(/STRIPE_API_BASE/);
  });
});
