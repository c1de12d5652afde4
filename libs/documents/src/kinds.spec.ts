import { jobQueue } from './kinds';

describe('jobQueue', () => {
  it('sends a job to the pool its most demanding file needs: speech, then office, then parse', () => {
    expect(jobQueue(['pdf', 'image', 'docx', 'hwp', 'markdown'])).toBe('parse');
    for (const kind of ['doc', 'xls', 'ppt', 'odt', 'ods', 'odp', 'rtf'] as const) {
      expect(jobQueue([kind])).toBe('office');
      expect(jobQueue(['pdf', kind])).toBe('office');
    }
    expect(jobQueue(['audio'])).toBe('speech');
    expect(jobQueue(['doc', 'video', 'pdf'])).toBe('speech');
  });
});
