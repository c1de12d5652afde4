import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header that carries a delivery's signature. */
export const SIGNATURE_HEADER = 'Docconv-Signature';

/** A fresh signing secret: `whsec_` and 32 random bytes, base64url. The whole string is the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The `Docconv-Signature` value of a delivery: `t=<unix seconds>,v1=<hex>`, where v1 is the
 * HMAC-SHA256, keyed with the user's webhook secret (its UTF-8 bytes), of `<t>.<body>`.
 * Signing the time with the body lets receivers refuse replays of old deliveries.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${signatureOf(secret, body, unixSeconds)}`;
}

function signatureOf(secret: string, body: string, unixSeconds: number): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
}

/**
 * What a receiver does with a delivery: true when the header is well formed, its v1 matches
 * the body and the secret, and its time is within `toleranceSeconds` of `nowSeconds`.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || !/^[0-9a-f]{64}$/.test(v1)) {
    return false;
  }
  return timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(signatureOf(secret, body, t), 'hex'));
}
