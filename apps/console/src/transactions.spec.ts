import { describe, expect, it } from '@jest/globals';
import { describeTransaction, shortJobId, splitJobIds } from './transactions';

const JOB = '3f2a9c1e-7b4d-4e2a-9f10-5c6d7e8f9a0b';

describe('describeTransaction', () => {
  it('says what a job row is about in a message, with the job apart', () => {
    expect(describeTransaction({ type: 'spend', description: `Job ${JOB}: report.pdf (+1 more)` })).toEqual({
      key: 'transaction.job',
      values: { title: 'report.pdf (+1 more)' },
      jobId: JOB,
    });
    expect(describeTransaction({ type: 'refund', description: `Job ${JOB} cancelled before processing` })).toEqual({
      key: 'transaction.cancelled',
      values: {},
      jobId: JOB,
    });
    expect(describeTransaction({ type: 'refund', description: `Refund of job ${JOB}` })).toMatchObject({
      key: 'transaction.jobRefund',
      jobId: JOB,
    });
  });

  it('tells a refund of pages not delivered from one of pages a cancel stopped', () => {
    const stopped = `Job ${JOB}: cancelled while processing; 12 of 3000 pages and 0 of 0 images finished before the cancel and delivered; cancel seen after page 12`;
    expect(describeTransaction({ type: 'refund', description: stopped })).toMatchObject({
      key: 'transaction.stopped',
      jobId: JOB,
    });
    expect(
      describeTransaction({ type: 'refund', description: `Job ${JOB}: not delivered: a.pdf page 3` }),
    ).toMatchObject({ key: 'transaction.undelivered', jobId: JOB });
  });

  it('names a conversion by its format', () => {
    expect(describeTransaction({ type: 'spend', description: `XLSX Basic of job ${JOB}` })).toEqual({
      key: 'transaction.conversion',
      values: {},
      jobId: JOB,
      format: 'xlsx_basic',
    });
    expect(
      describeTransaction({
        type: 'refund',
        description: `Refund of the XLSX Advanced conversion of job ${JOB}`,
      }),
    ).toEqual({ key: 'transaction.conversionRefund', values: {}, jobId: JOB, format: 'xlsx_advanced' });
  });

  it('reads payments and grants, and leaves any other description as written', () => {
    expect(describeTransaction({ type: 'charge', description: 'Stripe payment pi_123: $25.00' })).toEqual({
      key: 'transaction.stripe',
      values: { amount: '$25.00' },
    });
    expect(describeTransaction({ type: 'grant', description: 'Granted by an operator' })).toEqual({
      key: 'transaction.operator',
      values: {},
    });
    expect(describeTransaction({ type: 'grant', description: 'Welcome credits' })).toEqual({
      text: 'Welcome credits',
    });
    // The type must agree: a grant that reads like a spend is not one.
    expect(describeTransaction({ type: 'grant', description: `Job ${JOB}: x` })).toEqual({
      text: `Job ${JOB}: x`,
    });
  });
});

describe('splitJobIds', () => {
  it('cuts a text at its job ids', () => {
    expect(splitJobIds(`Moved from ${JOB} by support`)).toEqual(['Moved from ', JOB, ' by support']);
    expect(splitJobIds('no id')).toEqual(['no id']);
    expect(shortJobId(JOB)).toBe('3f2a9c1e…');
  });
});
