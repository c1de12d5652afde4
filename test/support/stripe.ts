import { REPO_ROOT } from '@docconv/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Stripe from 'stripe';
import type TestAgent from 'supertest/lib/agent';

const STRIPE_MOCK = join(REPO_ROOT, '.tools', 'bin', 'stripe-mock');

/** One call the API made to Stripe, as it went over the wire. */
export interface StripeCall {
  method: string;
  path: string;
  /** The form-encoded body Stripe's API takes (`line_items[0][price_data][currency]=usd`…). */
  form: URLSearchParams;
  /** What stripe-mock answered. */
  status: number;
}

export interface StripeMock {
  /** Stripe's API root on this machine, e.g. `http://127.0.0.1:41234`: the value of STRIPE_API_BASE. */
  url: string;
  /** Every call made to `url`, oldest first (each passed on to stripe-mock as it came). */
  calls: StripeCall[];
  /** The variables that point an API at it, with a test secret key and the suite's webhook secret. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts Stripe's own mock of its API (stripe-mock, built by scripts/setup-tests.sh into .tools/bin) on
 * free ports of the loopback interface, HTTP and HTTPS both, so it never takes another's port.
 * `url` is a recorder in front of it that passes every call on unchanged and keeps a copy.
 */
export async function startStripeMock(): Promise<StripeMock> {
  if (!existsSync(STRIPE_MOCK)) {
    throw new Error(
      `${STRIPE_MOCK} is missing: run scripts/setup-tests.sh, which builds stripe-mock from its Go module.`,
    );
  }
  const child: ChildProcess = spawn(STRIPE_MOCK, ['-http-addr', '127.0.0.1:0', '-https-addr', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stripe-mock did not start within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening for HTTP at address: 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stripe-mock exited with ${code}:\n${output}`));
    });
  });
  child.stdout?.removeAllListeners('data').resume();
  child.stderr?.removeAllListeners('data').resume();
  const calls: StripeCall[] = [];
  const recorder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = forward(
        { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          calls.push({
            method: req.method ?? '',
            path: req.url ?? '',
            form: new URLSearchParams(body.toString()),
            status: answer.statusCode ?? 0,
          });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => res.writeHead(502).end(String(error)));
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    env: { STRIPE_SECRET_KEY: 'sk_test_docconv', STRIPE_API_BASE: url },
    close: async () => {
      const closed = new Promise<void>((resolve) => recorder.close(() => resolve()));
      recorder.closeAllConnections();
      await closed;
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/** What a synthetic Checkout Session event says; any session field can be given another value (or removed with undefined). */
export interface CheckoutEventOptions {
  type?: string;
  paymentStatus?: string;
  /** Fields of the session that replace the usual ones, as raw JSON values of any type. */
  session?: Record<string, unknown>;
  /** Makes the event's id distinct, e.g. for two events of one type. */
  eventSuffix?: string;
}

/**
 * An event Stripe sends about a Checkout Session the API opened for `userId` (stripe-mock answers
 * every call with fixture data and sends no events): by default `checkout.session.completed`,
 * paid at once.
 */
export function checkoutSessionEvent(
  userId: string,
  cents: number,
  sessionId: string,
  options: CheckoutEventOptions = {},
): string {
  const type = options.type ?? 'checkout.session.completed';
  return JSON.stringify({
    id: `evt_${sessionId}_${type.split('.').at(-1)}${options.eventSuffix ?? ''}`,
    object: 'event',
    type,
    created: 1_795_000_000,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        client_reference_id: userId,
        metadata: { user_id: userId },
        amount_total: cents,
        currency: 'usd',
        payment_status: options.paymentStatus ?? 'paid',
        payment_intent: `pi_${sessionId}`,
        created: 1_795_000_000,
        ...options.session,
      },
    },
  });
}

/** The `checkout.session.completed` event of a Checkout Session paid at once. */
export function checkoutCompletedEvent(userId: string, cents: number, sessionId: string): string {
  return checkoutSessionEvent(userId, cents, sessionId);
}

/** Signs `payload` with the suite's webhook secret, as Stripe signs its deliveries. */
export function signStripePayload(payload: string, secret = process.env.STRIPE_WEBHOOK_SECRET!): string {
  return new Stripe('sk_test_unused').webhooks.generateTestHeaderString({ payload, secret });
}

/** Delivers a signed event to the API's Stripe webhook. */
export function deliverStripeEvent(http: TestAgent, payload: string, signature = signStripePayload(payload)) {
  return http
    .post('/api/v1/payments/stripe/webhook')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', signature)
    .send(payload);
}
