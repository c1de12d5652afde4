import type { WebhookSettings } from '@docconv/config';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  callbackUrlProblem,
  hostAllowed,
  publicAddresses,
  resolveWithSystemDns,
  type ResolveHost,
} from './callback-url';

/** How long one attempt may take, connection included, before it counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** What became of one attempt: the receiver's status code, or why there was none. */
export type SendResult = { statusCode: number; error: null } | { statusCode: null; error: string };

export const isDelivered = (result: SendResult): boolean =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

export interface OutgoingWebhook {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * POSTs one delivery. The callback's policy is checked again, and the connection goes only
 * to addresses checked in the same resolution that opens it, so a host that has come to
 * resolve to a private address since upload (DNS rebinding) is refused, not reached.
 * Redirects are not followed: a 3xx is a failed attempt. Never throws.
 */
export async function sendWebhook(
  webhook: OutgoingWebhook,
  settings: WebhookSettings,
  resolve: ResolveHost = resolveWithSystemDns,
): Promise<SendResult> {
  const problem = await callbackUrlProblem(webhook.url, settings, resolve).catch((error: Error) => error.message);
  if (problem !== null) return { statusCode: null, error: `Not sent: the callback URL ${problem}.` };
  const url = new URL(webhook.url);
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...webhook.headers, 'Content-Length': String(Buffer.byteLength(webhook.body)) },
    lookup: hostAllowed(url, settings.allowedPrivateHosts) ? undefined : checkedLookup(resolve),
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    agent: false,
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((settle) => {
    const outgoing = request(url, options, (response: IncomingMessage) => {
      settle({ statusCode: response.statusCode ?? 0, error: null });
      response.destroy();
    });
    outgoing.on('error', (error: Error) => settle({ statusCode: null, error: describeFailure(error) }));
    outgoing.end(webhook.body);
  });
}

/** A `lookup` for the connection that hands it only public addresses, or refuses the host. */
function checkedLookup(resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    publicAddresses(hostname, resolve).then(
      (addresses: LookupAddress[]) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'ECALLBACKREFUSED' }), '', 0),
    );
  };
}

function describeFailure(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (error.name === 'TimeoutError' || code === 'ABORT_ERR') {
    return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`;
  }
  if (code === 'ECALLBACKREFUSED') return `Not sent: the callback URL ${error.message}.`;
  return `Could not reach the callback URL: ${code ?? error.message}.`;
}
