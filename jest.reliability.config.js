/**
 * The reliability suite: money under concurrency, worker crashes, PostgreSQL and Redis outages,
 * hostile uploads and tenant isolation, against a real stack. Each scenario prints its figures.
 * Run in band (`npm run test:reliability`): the scenarios measure the stack and must not compete for it.
 */
const base = require('./jest.base');

module.exports = {
  ...base,
  displayName: 'reliability',
  testMatch: ['<rootDir>/test-reliability/**/*.e2e-spec.ts'],
  testTimeout: 180_000,
};
