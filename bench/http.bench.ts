import { ApiKeysService, UsersService } from '@docconv/accounts';
import { loadConfig } from '@docconv/config';
import type autocannon from 'autocannon';
import express from 'express';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiApp } from '../apps/api/src/api.factory';
import { benchEnv, readBytes, table, textPdf } from './support';

const CONNECTIONS = 10;
const SECONDS = 10;
const WARM_UP_SECONDS = 2;
/** Rounds over all routes in turn: the machine's other load drifts, so each route is measured beside the reference three times. */
const ROUNDS = 3;
/** The most an API key may allow (the column's CHECK constraint); a new key per measurement keeps each under it. */
const KEY_RATE_LIMIT_RPM = 100_000;

/** One URL under load, with the headers every request carries. */
interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
}

/** A URL to measure, and the headers for one measurement of it. */
interface Route {
  name: string;
  url: string;
  headers: () => Promise<Record<string, string>>;
}

/**
 * Runs the `autocannon` command against a URL in a process of its own (the load generator does
 * not share the servers' event loop) and returns its JSON result.
 */
function cannon(target: Target, seconds: number): Promise<autocannon.Result> {
  const headerArgs = Object.entries(target.headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  const args = ['-c', String(CONNECTIONS), '-d', String(seconds), '-j', '-n', ...headerArgs, target.url];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve('autocannon/autocannon.js'), ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as autocannon.Result)
        : reject(new Error(`autocannon exited ${code} on ${target.name}`)),
    );
  });
}

/** A warm-up run (discarded), then the measured run; any failed or non-2xx response fails the bench. */
async function measure(route: Route): Promise<autocannon.Result> {
  const target = { name: route.name, url: route.url, headers: await route.headers() };
  await cannon(target, WARM_UP_SECONDS);
  const result = await cannon(target, SECONDS);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.name}: ${result.non2xx} non-2xx responses and ${result.errors} errors under load`);
  return result;
}

/** The reference: Express with one route answering a small JSON body, nothing else mounted. */
async function bareExpress(): Promise<{ server: Server; url: string }> {
  const app = express();
  app.get('/', (_req, res) => {
    res.json({ hello: 'world' });
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** `value / reference` to two places; a dash when the reference rounds to zero (whole milliseconds). */
function ratio(value: number, reference: number): string {
  return reference > 0 ? (value / reference).toFixed(2) : '—';
}

/**
 * Throughput and latency of two authenticated read routes of the in-process API (request logs at
 * `warn`, so none are written) against a bare Express hello-world in the same process, each under
 * the same autocannon load: a user, a new API key at the highest rate limit per measurement, a real job row.
 * The routes are measured in turn, three rounds over all of them; each route's ratio to the
 * reference is given per round (the reference measured just before it), since the machine's other
 * load drifts between rounds.
 */
export async function benchHttp(): Promise<string> {
  const app = await createApiApp(loadConfig(benchEnv()));
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const bare = await bareExpress();
  try {
    const user = await app.get(UsersService).create(`bench-${randomUUID()}@example.test`, 'benchmark password');
    const keys = app.get(ApiKeysService);
    // A new key at the highest rate limit for each measurement: one key's minute would fill up
    // over the rounds at the rates measured, and the limit is the product's to enforce.
    const freshKey = async () => ({
      'X-API-Key': (await keys.create(user.id, { rateLimitRpm: KEY_RATE_LIMIT_RPM })).secret,
    });
    const jobKey = (await freshKey())['X-API-Key'];
    const form = new FormData();
    form.append('files', new Blob([readBytes(await textPdf(1))], { type: 'application/pdf' }), 'http.pdf');
    const upload = await fetch(`${url}/api/v1/jobs/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': jobKey },
      body: form,
    });
    const { job_id: jobId, detail } = (await upload.json()) as { job_id: string; detail?: string };
    if (upload.status !== 201) throw new Error(`upload failed: ${upload.status} ${detail}`);

    const targets: Route[] = [
      { name: 'bare Express, GET / (reference)', url: bare.url, headers: () => Promise.resolve({}) },
      { name: 'GET /api/v1/jobs/{id}', url: `${url}/api/v1/jobs/${jobId}`, headers: freshKey },
      { name: 'GET /api/v1/account', url: `${url}/api/v1/account`, headers: freshKey },
    ];
    // results[round][target]
    const results: autocannon.Result[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measured: autocannon.Result[] = [];
      for (const target of targets) measured.push(await measure(target));
      results.push(measured);
    }
    const rows = targets.map((target, i) => {
      const rounds = results.map((measured) => ({ result: measured[i], reference: measured[0] }));
      const byRate = [...rounds].sort((x, y) => x.result.requests.average - y.result.requests.average);
      const { result, reference } = byRate[Math.floor(byRate.length / 2)];
      const ratios = rounds.map((r) => r.result.requests.average / r.reference.requests.average).sort((x, y) => x - y);
      return {
        route: target.name,
        'req/s (median)': result.requests.average.toFixed(0),
        'req/s (min–max)': `${byRate[0].result.requests.average.toFixed(0)}–${byRate[byRate.length - 1].result.requests.average.toFixed(0)}`,
        'p50 (ms)': result.latency.p50,
        'p99 (ms)': result.latency.p99,
        'req/s vs bare (per round)': ratios.map((r) => r.toFixed(2)).join(' / '),
        'p99 vs bare': ratio(result.latency.p99, reference.latency.p99),
      };
    });
    return table(
      `HTTP: ${CONNECTIONS} connections for ${SECONDS} s per route after ${WARM_UP_SECONDS} s of warm-up, ${ROUNDS} rounds over the routes in turn; the round of median req/s shown, its p50/p99 and the reference of the same round (in-process API with X-API-Key, autocannon in its own process)`,
      rows,
    );
  } finally {
    bare.server.closeAllConnections();
    bare.server.close();
    await app.close();
  }
}
