/** The evalset suite: tests that read the public documents in EVALSET_DIR (default ../shared/evalset). */
const base = require('./jest.base');

module.exports = {
  ...base,
  displayName: 'evalset',
  testMatch: ['<rootDir>/test-evalset/**/*.e2e-spec.ts'],
};
