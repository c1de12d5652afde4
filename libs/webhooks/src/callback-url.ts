import type { HostRule, WebhookSettings } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { nonPublicRange } from './address-ranges';

export const MAX_CALLBACK_URL_LENGTH = 2048;

/** Resolves a host name to every address it has (the shape of `dns.lookup` with `all`). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** Every address the system resolver gives for the host, IPv4 and IPv6, in its order. */
export const resolveWithSystemDns: ResolveHost = (hostname) =>
  new Promise((resolve, reject) =>
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/**
 * The form of a callback URL, before any policy: absolute, http or https, without user
 * credentials, at most 2048 characters. Returns the URL as it will be stored, or why not.
 */
export function parseCallbackUrl(raw: string): { url: string } | { problem: string } {
  const text = raw.trim();
  if (text.length > MAX_CALLBACK_URL_LENGTH)
    return { problem: `must be at most ${MAX_CALLBACK_URL_LENGTH} characters` };
  if (!URL.canParse(text)) return { problem: 'must be an absolute https URL, e.g. https://example.com/hooks/docconv' };
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must be an https URL' };
  if (url.hostname === '') return { problem: 'must name a host' };
  if (url.username !== '' || url.password !== '') return { problem: 'must not carry a user name or password' };
  return { url: url.href };
}

/**
 * Why this deployment will not send to the URL, in words for the `callback_url` field, or
 * null when it will. Plain http only reaches hosts in WEBHOOK_ALLOWED_HTTP_HOSTS; a host that
 * is, or resolves to, a non-public address only when it is in WEBHOOK_ALLOWED_PRIVATE_HOSTS.
 * Every resolved address must be public, since a connection may use any of them.
 */
export async function callbackUrlProblem(
  href: string,
  settings: WebhookSettings,
  resolve: ResolveHost = resolveWithSystemDns,
): Promise<string | null> {
  const url = new URL(href);
  if (url.protocol !== 'https:' && !hostAllowed(url, settings.allowedHttpHosts)) {
    return `must be an https URL (plain http is not accepted for ${url.host})`;
  }
  if (hostAllowed(url, settings.allowedPrivateHosts)) return null;
  try {
    await publicAddresses(url.hostname, resolve);
    return null;
  } catch (error) {
    if (error instanceof CallbackAddressRefused) return error.message;
    throw error;
  }
}

/** Refuses, as a 400 naming `callback_url`, a callback URL this deployment will not send to. */
export async function assertCallbackUrlAllowed(
  href: string,
  settings: WebhookSettings,
  resolve: ResolveHost = resolveWithSystemDns,
): Promise<void> {
  const problem = await callbackUrlProblem(href, settings, resolve);
  if (problem === null) return;
  throw new DomainError('validation_failed', `The callback_url cannot be used: it ${problem}.`, {
    errors: [{ field: 'callback_url', message: problem }],
  });
}

/** The host resolves to, or is, an address callbacks may not reach (or does not resolve at all). */
export class CallbackAddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallbackAddressRefused';
  }
}

/**
 * The addresses of `hostname` (a URL's hostname: IPv6 literals in brackets), all of them
 * public; throws CallbackAddressRefused otherwise. An IP literal is judged as it is.
 */
export async function publicAddresses(hostname: string, resolve: ResolveHost): Promise<LookupAddress[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(bare);
  if (family !== 0) {
    const range = nonPublicRange(bare);
    if (range)
      throw new CallbackAddressRefused(`points to ${bare}, a ${range} address; callbacks must reach a public address`);
    return [{ address: bare, family }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(bare);
  } catch {
    throw new CallbackAddressRefused(`names the host ${bare}, which could not be resolved`);
  }
  if (addresses.length === 0) throw new CallbackAddressRefused(`names the host ${bare}, which has no address`);
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range) {
      throw new CallbackAddressRefused(
        `names the host ${bare}, which resolves to ${address}, a ${range} address; callbacks must reach a public address`,
      );
    }
  }
  return addresses;
}

/** Whether the URL's host (and port, when the rule names one) is on the list. */
export function hostAllowed(url: URL, rules: readonly HostRule[]): boolean {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return rules.some((rule) => rule.hostname === url.hostname && (rule.port === null || rule.port === port));
}
