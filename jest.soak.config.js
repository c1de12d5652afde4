/**
 * The soak: two API processes and three workers on one PostgreSQL, Redis and S3 server, under
 * simulated users, while a worker is killed, Redis restarts empty and an API process is killed
 * (`npm run test:soak`, a few minutes). It prints its figures.
 */
const base = require('./jest.base');

module.exports = {
  ...base,
  displayName: 'soak',
  testMatch: ['<rootDir>/test-soak/**/*.e2e-spec.ts'],
  testTimeout: 600_000,
};
