import type { WebhookSettings } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import type { LookupAddress } from 'node:dns';
import { assertCallbackUrlAllowed, callbackUrlProblem, hostAllowed, parseCallbackUrl } from './callback-url';

const strict: WebhookSettings = { allowedHttpHosts: [], allowedPrivateHosts: [], retryBaseMs: 10_000 };
/** A resolver that answers from a fixed table, so host names need no network. */
const table =
  (entries: Record<string, string[]>) =>
  (hostname: string): Promise<LookupAddress[]> => {
    const addresses = entries[hostname];
    if (!addresses) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

describe('parseCallbackUrl', () => {
  it('accepts absolute http and https URLs, normalised', () => {
    expect(parseCallbackUrl(' https://Hooks.Example.com/docconv?x=1 ')).toEqual({
      url: 'https://hooks.example.com/docconv?x=1',
    });
    expect(parseCallbackUrl('http://127.0.0.1:8080/hook')).toEqual({ url: 'http://127.0.0.1:8080/hook' });
  });

  it.each([
    ['/relative/path', /absolute https URL/],
    ['not a url', /absolute https URL/],
    ['ftp://example.com/hook', /https URL/],
    ['https://user:pass@example.com/hook', /user name or password/],
    [`https://example.com/${'a'.repeat(2048)}`, /at most 2048/],
  ])('refuses %s', (raw, problem) => {
    const parsed = parseCallbackUrl(raw);
    expect('problem' in parsed && parsed.problem).toMatch(problem);
  });
});

describe('callbackUrlProblem', () => {
  const publicDns = table({ 'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });

  it('accepts https to a host whose every address is public', async () => {
    expect(await callbackUrlProblem('https://hooks.example.com/x', strict, publicDns)).toBeNull();
    expect(await callbackUrlProblem('https://8.8.8.8/x', strict, publicDns)).toBeNull();
  });

  it('refuses plain http unless the host (and port, when named) is allowed', async () => {
    expect(await callbackUrlProblem('http://hooks.example.com/x', strict, publicDns)).toMatch(/must be an https URL/);
    const byHost = { ...strict, allowedHttpHosts: [{ hostname: 'hooks.example.com', port: null }] };
    expect(await callbackUrlProblem('http://hooks.example.com:8080/x', byHost, publicDns)).toBeNull();
    const byPort = { ...strict, allowedHttpHosts: [{ hostname: 'hooks.example.com', port: 8080 }] };
    expect(await callbackUrlProblem('http://hooks.example.com:8080/x', byPort, publicDns)).toBeNull();
    expect(await callbackUrlProblem('http://hooks.example.com/x', byPort, publicDns)).toMatch(/https/);
  });

  it.each([
    ['https://10.1.2.3/hook', /10\.1\.2\.3, a private address/],
    ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254, a link-local address/],
    ['https://127.0.0.1/hook', /loopback/],
    ['https://[::1]/hook', /::1, a loopback address/],
    ['https://[::ffff:10.0.0.1]/hook', /private/],
    ['https://[fd00::1]/hook', /unique-local/],
    ['https://0x7f.1/hook', /127\.0\.0\.1, a loopback address/],
  ])('refuses %s, an address that is not public', async (url, problem) => {
    expect(await callbackUrlProblem(url, strict, publicDns)).toMatch(problem);
  });

  it('refuses a host when any of its addresses is not public, or when it does not resolve', async () => {
    const mixed = table({ 'split.example.com': ['93.184.215.14', '10.0.0.7'] });
    expect(await callbackUrlProblem('https://split.example.com/x', strict, mixed)).toMatch(
      /split\.example\.com, which resolves to 10\.0\.0\.7, a private address/,
    );
    expect(await callbackUrlProblem('https://nowhere.example.com/x', strict, mixed)).toMatch(/could not be resolved/);
  });

  it('resolves real names: localhost is loopback, refused unless allowed as a private host', async () => {
    expect(await callbackUrlProblem('https://localhost/x', strict)).toMatch(/localhost, which resolves to .*loopback/);
    const allowed = { ...strict, allowedPrivateHosts: [{ hostname: 'localhost', port: null }] };
    expect(await callbackUrlProblem('https://localhost/x', allowed)).toBeNull();
  });

  it('is a 400 naming callback_url when asserted', async () => {
    const refusal = await assertCallbackUrlAllowed('https://10.0.0.1/', strict).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'callback_url', message: expect.stringMatching(/private/) }],
    });
  });
});

describe('hostAllowed', () => {
  it('compares the host and, when the rule has one, the effective port', () => {
    const rules = [
      { hostname: 'a.example', port: null },
      { hostname: 'b.example', port: 443 },
      { hostname: '[::1]', port: 8080 },
    ];
    expect(hostAllowed(new URL('http://a.example:1234/'), rules)).toBe(true);
    expect(hostAllowed(new URL('https://b.example/'), rules)).toBe(true);
    expect(hostAllowed(new URL('http://b.example/'), rules)).toBe(false);
    expect(hostAllowed(new URL('http://[::1]:8080/'), rules)).toBe(true);
    expect(hostAllowed(new URL('http://c.example/'), rules)).toBe(false);
  });
});
