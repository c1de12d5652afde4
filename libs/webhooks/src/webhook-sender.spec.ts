import type { WebhookSettings } from '@docconv/config';
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDelivered, sendWebhook } from './webhook-sender';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('sendWebhook', () => {
  let server: Server;
  let port: number;
  const received: Received[] = [];
  let answer = 204;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(answer, answer === 302 ? { Location: 'http://127.0.0.1:1/elsewhere' } : {}).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    received.length = 0;
    answer = 204;
  });

  const local: WebhookSettings = {
    allowedHttpHosts: [
      { hostname: '127.0.0.1', port: null },
      { hostname: 'rebind.example.test', port: null },
    ],
    allowedPrivateHosts: [{ hostname: '127.0.0.1', port: null }],
    retryBaseMs: 200,
  };
  const webhook = (url: string) => ({
    url,
    body: '{"id":"d1"}',
    headers: { 'Content-Type': 'application/json', 'Docconv-Event': 'job.done' },
  });

  it('POSTs the body and headers and reports a 2xx as delivered', async () => {
    const result = await sendWebhook(webhook(`http://127.0.0.1:${port}/hook`), local);
    expect(result).toEqual({ statusCode: 204, error: null });
    expect(isDelivered(result)).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0].body).toBe('{"id":"d1"}');
    expect(received[0].headers).toMatchObject({
      'content-type': 'application/json',
      'docconv-event': 'job.done',
      'content-length': '11',
    });
  });

  it('reports other answers, including redirects it does not follow, as not delivered', async () => {
    answer = 500;
    expect(isDelivered(await sendWebhook(webhook(`http://127.0.0.1:${port}/hook`), local))).toBe(false);
    answer = 302;
    const redirected = await sendWebhook(webhook(`http://127.0.0.1:${port}/hook`), local);
    expect(redirected.statusCode).toBe(302);
    expect(isDelivered(redirected)).toBe(false);
    expect(received).toHaveLength(2);
  });

  it('reports a connection failure without throwing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await sendWebhook(webhook(`http://127.0.0.1:${closedPort}/hook`), local)).toEqual({
      statusCode: null,
      error: 'Could not reach the callback URL: ECONNREFUSED.',
    });
  });

  it('refuses to connect when the host has come to resolve to a private address (DNS rebinding)', async () => {
    // Public when the policy is checked, loopback when the connection looks it up.
    const answers = ['93.184.215.14', '127.0.0.1'];
    const rebinding = (): Promise<LookupAddress[]> =>
      Promise.resolve([{ address: answers.shift() ?? '127.0.0.1', family: 4 }]);
    const result = await sendWebhook(webhook(`http://rebind.example.test:${port}/hook`), local, rebinding);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/rebind\.example\.test, which resolves to 127\.0\.0\.1, a loopback address/);
    expect(answers).toEqual([]);
    expect(received).toHaveLength(0);
  });

  it('refuses a private address before connecting at all', async () => {
    const result = await sendWebhook(webhook(`http://localhost:${port}/hook`), {
      ...local,
      allowedHttpHosts: [{ hostname: 'localhost', port: null }],
    });
    expect(result.error).toMatch(/^Not sent: the callback URL names the host localhost, which resolves to/);
    expect(received).toHaveLength(0);
  });
});
