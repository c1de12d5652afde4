import { ERROR_CODES } from '@docconv/contracts';
import { titleOf } from './status-of';

describe('problem titles', () => {
  it('are a few words for every code, in sentence case without a full stop', () => {
    for (const code of ERROR_CODES) {
      const title = titleOf(code);
      expect({ code, fits: /^[A-Z][^.]{2,39}$/.test(title) }).toEqual({ code, fits: true });
    }
  });

  it('tell apart the codes that share a status: no two codes share a title', () => {
    const titles = ERROR_CODES.map(titleOf);
    expect(new Set(titles).size).toBe(ERROR_CODES.length);
  });

  it('name the common cases as a person would', () => {
    expect(titleOf('insufficient_credits')).toBe('Not enough credits');
    expect(titleOf('job_not_found')).toBe('Job not found');
    expect(titleOf('validation_failed')).toBe('Invalid request');
    expect(titleOf('rate_limited')).toBe('Too many requests');
    expect(titleOf('daily_quota_exceeded')).toBe('Daily quota reached');
    expect(titleOf('unsupported_format')).toBe('Unsupported format');
    expect(titleOf('payload_too_large')).toBe('File too large');
  });
});
