import { createHmac } from 'node:crypto';
import { newWebhookSecret, signatureHeader, verifySignature } from './webhook-signature';

describe('webhook signature', () => {
  const secret = 'whsec_test-secret';
  const body = '{"id":"e1","type":"job.done"}';

  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>', () => {
    const header = signatureHeader(secret, body, 1_790_000_000);
    const expected = createHmac('sha256', secret).update(`1790000000.${body}`).digest('hex');
    expect(header).toBe(`t=1790000000,v1=${expected}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('verifies with the same secret, body and a recent time only', () => {
    const header = signatureHeader(secret, body, 1_790_000_000);
    expect(verifySignature(secret, body, header, 1_790_000_100)).toBe(true);
    expect(verifySignature('whsec_other', body, header, 1_790_000_100)).toBe(false);
    expect(verifySignature(secret, `${body} `, header, 1_790_000_100)).toBe(false);
    expect(verifySignature(secret, body, header, 1_790_000_000 + 301)).toBe(false);
    expect(verifySignature(secret, body, header.replace('t=1790000000', 't=1790000001'), 1_790_000_000)).toBe(false);
    expect(verifySignature(secret, body, 'v1=abc', 1_790_000_000)).toBe(false);
  });

  it('makes a different secret every time, with 32 random bytes after whsec_', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
