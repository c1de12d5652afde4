/** The main suite: unit tests beside the code and end-to-end tests in test/. Needs DATABASE_URL and REDIS_URL (`npm test` provides them). */
const base = require('./jest.base');

module.exports = {
  ...base,
  displayName: 'main',
  testMatch: [
    '<rootDir>/libs/**/*.spec.ts',
    '<rootDir>/apps/**/*.spec.ts',
    '<rootDir>/tools/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
  ],
  // Every response of the in-process API is checked against openapi.json (test/support/contract.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/contract-setup.ts'],
};
