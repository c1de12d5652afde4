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
