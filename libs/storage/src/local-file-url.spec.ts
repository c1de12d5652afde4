import { createHmac } from 'node:crypto';
import { DomainError } from '@docconv/contracts';
import { LocalDiskStorage } from './local-disk.storage';
import { signLocalFileUrl, verifyLocalFileUrl, type LocalFileUrlSigning } from './local-file-url';

const SECRET = 's'.repeat(32);
const SIGNING: LocalFileUrlSigning = { secret: SECRET, defaultTtlSeconds: 900, publicBaseUrl: null };
const NOW = new Date('2026-11-22T08:00:00Z');
const NOW_SECONDS = NOW.getTime() / 1000;

/** The token as documented: hex HMAC-SHA256 of `<path>\n<expires>[\n<filename>]` keyed by FILE_URL_SECRET. */
function documentedToken(message: string): string {
  return createHmac('sha256', SECRET).update(message).digest('hex');
}

/** The path (decoded, as the route hands it over) and query of a signed link. */
function parts(url: string): { path: string; query: Record<string, string> } {
  const parsed = new URL(url, 'http://api.test');
  const path = parsed.pathname.replace('/api/v1/files/', '').split('/').map(decodeURIComponent).join('/');
  return { path, query: Object.fromEntries(parsed.searchParams) };
}

function refusal(attempt: () => unknown): DomainError {
  try {
    attempt();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('the link was accepted');
}

describe('signLocalFileUrl', () => {
  it('makes a path-absolute link valid for the default lifetime, with the documented token', () => {
    const url = signLocalFileUrl('results/job-1/result.md', {}, SIGNING, NOW);
    const expires = NOW_SECONDS + 900;
    expect(url).toBe(
      `/api/v1/files/results/job-1/result.md?expires=${expires}&token=${documentedToken(`results/job-1/result.md\n${expires}`)}`,
    );
  });

  it('starts links with the public base URL when one is configured', () => {
    const url = signLocalFileUrl(
      'results/job-1/result.md',
      {},
      { ...SIGNING, publicBaseUrl: 'https://api.example.com' },
    );
    expect(url).toMatch(/^https:\/\/api\.example\.com\/api\/v1\/files\/results\/job-1\/result\.md\?expires=\d+&token=/);
  });

  it('signs the download name into the token and percent-encodes path segments', () => {
    const url = signLocalFileUrl(
      'results/job-1/Q3 report#1.docx',
      { ttlSeconds: 60, filename: 'Rapport été.docx' },
      SIGNING,
      NOW,
    );
    const parsed = new URL(url, 'http://api.test');
    expect(parsed.pathname).toBe('/api/v1/files/results/job-1/Q3%20report%231.docx');
    const expires = NOW_SECONDS + 60;
    expect(parsed.searchParams.get('filename')).toBe('Rapport été.docx');
    expect(parsed.searchParams.get('token')).toBe(
      documentedToken(`results/job-1/Q3 report#1.docx\n${expires}\nRapport été.docx`),
    );
  });

  it.each(['health/probe', 'results/../health/x', 'etc/passwd', 'results/a\nb'])('makes no link to %j', (path) => {
    expect(() => signLocalFileUrl(path, {}, SIGNING, NOW)).toThrow(/Refusing a download link/);
  });

  it('refuses to make a link that would last longer than the configured lifetime', () => {
    expect(() => signLocalFileUrl('results/j/r.md', { ttlSeconds: 901 }, SIGNING, NOW)).toThrow(RangeError);
  });

  it('refuses a download name with control characters', () => {
    expect(() => signLocalFileUrl('results/j/r.md', { filename: 'a\r\nSet-Cookie: x' }, SIGNING, NOW)).toThrow(
      /Refusing download name/,
    );
  });
});

describe('verifyLocalFileUrl', () => {
  const signed = parts(signLocalFileUrl('results/job-1/result.md', { filename: 'Report.md' }, SIGNING, NOW));

  it('grants the signed path and download name until the link expires', () => {
    const justBefore = new Date(NOW.getTime() + 899_000);
    expect(verifyLocalFileUrl(signed.path, signed.query, SIGNING, justBefore)).toEqual({
      path: 'results/job-1/result.md',
      filename: 'Report.md',
    });
  });

  it('grants a link without a download name', () => {
    const plain = parts(signLocalFileUrl('inputs/job-1/1-a.pdf', {}, SIGNING, NOW));
    expect(verifyLocalFileUrl(plain.path, plain.query, SIGNING, NOW)).toEqual({
      path: 'inputs/job-1/1-a.pdf',
      filename: null,
    });
  });

  it('refuses an expired link, saying when it expired', () => {
    const error = refusal(() =>
      verifyLocalFileUrl(signed.path, signed.query, SIGNING, new Date(NOW.getTime() + 900_000)),
    );
    expect(error.code).toBe('signed_url_invalid');
    expect(error.message).toBe('This download link expired at 2026-11-22T08:15:00 UTC. Ask for a new download link.');
  });

  it('refuses a validly signed link whose expiry is further away than the longest lifetime', () => {
    const path = 'results/job-1/result.md';
    const farExpiry = NOW_SECONDS + 900 + 31;
    const query = { expires: String(farExpiry), token: documentedToken(`${path}\n${farExpiry}`) };
    const error = refusal(() => verifyLocalFileUrl(path, query, SIGNING, NOW));
    expect(error.code).toBe('signed_url_invalid');
    expect(error.message).toMatch(/claims to last longer than the 900 s links of this service last/);
    // Within the lifetime (and the clock skew allowed between processes) the same link is granted.
    const nearExpiry = NOW_SECONDS + 900 + 30;
    const near = { expires: String(nearExpiry), token: documentedToken(`${path}\n${nearExpiry}`) };
    expect(verifyLocalFileUrl(path, near, SIGNING, NOW).path).toBe(path);
  });

  it.each([
    ['another path', { path: 'results/job-2/result.md' }],
    ['a later expiry', { expires: String(NOW_SECONDS + 86_400) }],
    ['another token', { token: documentedToken('something else') }],
    ['a token of the wrong shape', { token: 'abc' }],
    ['another download name', { filename: 'Other.md' }],
    ['no download name', { filename: undefined }],
    ['an expiry that is not a number', { expires: '1e12' }],
  ])('refuses a link altered to %s', (_, change: { path?: string } & Record<string, string | undefined>) => {
    const { path = signed.path, ...queryChange } = change;
    const query = { ...signed.query, ...queryChange };
    const error = refusal(() => verifyLocalFileUrl(path, query, SIGNING, NOW));
    expect(error.code).toBe('signed_url_invalid');
    expect(error.message).toMatch(/has been altered.*Ask for a new download link\.$/);
  });

  it('refuses a link signed with another secret', () => {
    const error = refusal(() =>
      verifyLocalFileUrl(signed.path, signed.query, { ...SIGNING, secret: 'o'.repeat(32) }, NOW),
    );
    expect(error.message).toMatch(/not issued by this service/);
  });

  it.each([
    ['no token', { token: undefined }],
    ['no expiry', { expires: undefined }],
    ['a repeated token', { token: [signed.query.token, signed.query.token] }],
  ])('refuses a link with %s as incomplete', (_, change: Record<string, unknown>) => {
    const error = refusal(() => verifyLocalFileUrl(signed.path, { ...signed.query, ...change }, SIGNING, NOW));
    expect(error.message).toMatch(/incomplete.*Ask for a new download link\.$/);
  });

  it.each(['health/probe', 'results/../inputs/x', '/results/job-1/result.md', 'results', 'tmp/x'])(
    'never grants %j, whatever the token',
    (path) => {
      const expires = String(NOW_SECONDS + 60);
      const query = { expires, token: documentedToken(`${path}\n${expires}`) };
      const error = refusal(() => verifyLocalFileUrl(path, query, SIGNING, NOW));
      expect(error.message).toBe('This link does not point at a downloadable file. Ask for a new download link.');
    },
  );
});

describe('LocalDiskStorage.signedUrl', () => {
  it('makes links with its signing settings', async () => {
    const storage = new LocalDiskStorage('/unused', SIGNING);
    const link = parts(await storage.signedUrl('results/job-1/result.md', { ttlSeconds: 30 }));
    expect(verifyLocalFileUrl(link.path, link.query, SIGNING).path).toBe('results/job-1/result.md');
    expect(Number(link.query.expires) - Date.now() / 1000).toBeLessThanOrEqual(30);
  });

  it('refuses to make links when opened without signing settings', async () => {
    await expect(new LocalDiskStorage('/unused').signedUrl('results/job-1/result.md', {})).rejects.toThrow(
      /FILE_URL_SECRET/,
    );
  });
});
