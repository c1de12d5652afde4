import { formatMismatches, writeFileCoverage, type ContractMismatch } from '@docconv/testing';
import { checkEveryResponse, checkRecordedResponses, recordedCoverage } from './contract';

/**
 * Part of the main suite's setup (jest.config.js `setupFilesAfterEnv`): after each test, the
 * responses the in-process API sent during it are checked against openapi.json and the test
 * fails on the first disagreement it caused; responses of `beforeAll`/`afterAll` hooks fail
 * the file's last hook. The file then leaves its coverage in test-output/contract/.
 *
 * CONTRACT_REPORT_ONLY=1 records the disagreements without failing anything, to list them all
 * from one run of the suite (test-output/contract/summary.json). It is for that local use:
 * CI does not set it.
 */
checkEveryResponse();
const reportOnly = process.env.CONTRACT_REPORT_ONLY === '1';
const outsideTests: ContractMismatch[] = [];
const all: ContractMismatch[] = [];

function check(): ContractMismatch[] {
  const found = checkRecordedResponses();
  all.push(...found);
  return found;
}

beforeEach(() => {
  outsideTests.push(...check());
});

afterEach(() => {
  const found = check();
  if (found.length > 0 && !reportOnly) throw new Error(formatMismatches(found));
});

afterAll(() => {
  outsideTests.push(...check());
  const coverage = recordedCoverage(expect.getState().testPath ?? 'unknown', all);
  if (coverage) writeFileCoverage(coverage);
  if (outsideTests.length > 0 && !reportOnly) throw new Error(formatMismatches(outsideTests));
});
