import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopProcess } from '@docconv/testing';
import request from 'supertest';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import { epubBomb, hwpBomb, hwpxBomb, odtBomb, pngBomb, tiffBomb } from '../test/support/bombs';
import { upload } from '../test/support/jobs';
import { spawnApi, type ApiProcess } from './support/api-process';
import { filesLeftUnder } from './support/disk';
import { formatHistogram, histogram, ms, printFigures } from './support/figures';
import { peakResidentMb, residentMb } from './support/process-memory';

/** The most memory the API process may hold while it inspects bombs: its own heap and one intake thread's cap, with room. */
const MEMORY_BOUND_MB = 1024;
const MB = 1024 * 1024;

/**
 * Sends a multipart upload that declares `declared` bytes, writes `sent` of them and hangs up.
 * Resolves once the connection is closed.
 */
function abortedUpload(port: number, key: string, declared: number, sent: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => resolve()); // the server may close first: that is an ending too
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      const head =
        `POST /api/v1/jobs/upload HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${declared}\r\n\r\n` +
        `--b\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`;
      socket.write(head);
      const chunk = Buffer.alloc(MB, 0x30);
      let left = sent;
      const pump = (): void => {
        while (left > 0) {
          const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= part.length;
          if (!socket.write(part)) {
            socket.once('drain', pump);
            return;
          }
        }
        socket.destroy();
      };
      pump();
    });
    socket.setTimeout(60_000, () => reject(new Error('an aborted upload did not end within a minute')));
  });
}

/**
 * Abuse against the API running as its own process: decompression bombs of every kind it reads,
 * uploads abandoned half-way, slow clients, and guessing at a known account's password.
 */
describe('abuse: bombs, abandoned uploads, slow clients, password guessing', () => {
  let api: ApiProcess;
  let scratch: string;
  let key: TestKey;
  let port: number;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'docconv-reliability-scratch-'));
    api = await spawnApi(
      {
        ...process.env,
        SCRATCH_DIR: scratch,
        LOG_LEVEL: 'error',
        HTTP_HEADERS_TIMEOUT_SECONDS: '3',
        HTTP_BODY_STALL_SECONDS: '3',
        LOGIN_FREE_FAILURES: '5',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '30',
      },
      'api-abuse',
    );
    port = Number(new URL(api.url).port);
    const http = request(api.url);
    key = await createKey(http, await signup(http, 'abuse'), { rate_limit_rpm: 100_000 });
  }, 60_000);

  afterAll(async () => {
    if (api) await stopProcess(api.child);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('decompression bombs (HWP, HWPX, ODT, EPUB, PNG, TIFF) are 4xx naming the file; API memory stays bounded', async () => {
    const GIB = 1024 * MB;
    const bombs: [string, Buffer][] = [
      ['bomb.hwp', await hwpBomb(GIB)],
      ['bomb.hwpx', await hwpxBomb(GIB)],
      ['bomb.odt', await odtBomb(GIB)],
      ['bomb.epub', await epubBomb(GIB)],
      ['bomb.png', await pngBomb(40_000)],
      ['bomb.tiff', await tiffBomb(8, 30_000)],
    ];
    const pid = api.child.pid!;
    const before = residentMb(pid);
    let sampled = before;
    const sampler = setInterval(() => (sampled = Math.max(sampled, residentMb(pid))), 20);
    const outcomes: { name: string; bytes: number; status: number; code: string; ms: number; detail: string }[] = [];
    try {
      for (const [name, content] of bombs) {
        const started = Date.now();
        const res = await upload(request(api.url), key.key, [{ name, content }]);
        outcomes.push({
          name,
          bytes: content.length,
          status: res.status,
          code: res.body.code as string,
          ms: Date.now() - started,
          detail: res.body.detail as string,
        });
      }
    } finally {
      clearInterval(sampler);
    }
    const peak = Math.max(sampled, peakResidentMb(pid));
    printFigures('Decompression bombs against the API process (each expands to 1 GiB or more)', [
      ...outcomes.map(({ name, bytes, status, code, ms: took }): [string, string] => [
        name,
        `${(bytes / MB).toFixed(1)} MB → ${status} ${code} in ${ms(took)}`,
      ]),
      ['API resident memory before', `${before} MB`],
      ['API resident memory, peak', `${peak} MB (bound ${MEMORY_BOUND_MB} MB)`],
    ]);
    for (const outcome of outcomes) {
      expect({ name: outcome.name, status: outcome.status >= 400 && outcome.status < 500 }).toEqual({
        name: outcome.name,
        status: true,
      });
      expect(outcome.detail).toContain(outcome.name);
    }
    expect(peak).toBeLessThan(MEMORY_BOUND_MB);
    expect((await request(api.url).get('/api/v1/health')).status).toBe(200);
  }, 180_000);

  it('20 uploads that announce 200 MB and hang up part-way leave no byte on disk', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const cuts = Array.from({ length: 20 }, () => Math.floor((1 + random() * 99) * MB));
    const started = Date.now();
    for (const sent of cuts) await abortedUpload(port, key.key, 200 * MB, sent);
    const elapsed = Date.now() - started;
    // The API notices each hang-up and removes that upload's folder; give the last one a moment.
    const left = await filesLeftUnder(scratch);
    printFigures('Abandoned uploads: 200 MB announced, 1–100 MB sent, then the client hangs up', [
      ['uploads', cuts.length],
      ['bytes sent in all', `${Math.round(cuts.reduce((a, b) => a + b, 0) / MB)} MB`],
      ['wall time', ms(elapsed)],
      ['files left in the scratch folder', left.files],
      ['bytes left in the scratch folder', left.bytes],
    ]);
    expect(left).toEqual({ files: 0, bytes: 0 });
    expect((await request(api.url).get('/api/v1/health')).status).toBe(200);
  }, 180_000);

  it('slow clients are cut off: headers that never end, and a body that stalls', async () => {
    const lasted = (send: (socket: ReturnType<typeof connect>) => void): Promise<{ ms: number; answer: string }> =>
      new Promise((resolve) => {
        const started = Date.now();
        let answer = '';
        const socket = connect(port, '127.0.0.1', () => send(socket));
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve({ ms: Date.now() - started, answer: answer.split('\r\n')[0] }));
      });
    // A header line every second, for ever.
    const slowloris = await lasted((socket) => {
      socket.write('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n');
      const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 1000);
      socket.on('close', () => clearInterval(drip));
    });
    // An upload whose body stops after its first bytes.
    const stalled = await lasted((socket) => {
      socket.write(
        `POST /api/v1/jobs/upload HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key.key}\r\n` +
          'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n--b\r\n',
      );
    });
    printFigures('Slow clients (headers timeout 3 s, body stall 3 s in this run)', [
      ['slowloris headers: closed after', `${ms(slowloris.ms)} (${slowloris.answer || 'no answer'})`],
      ['stalled upload body: closed after', ms(stalled.ms)],
    ]);
    expect(slowloris.ms).toBeLessThan(30_000);
    expect(slowloris.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(stalled.ms).toBeLessThan(30_000);
    expect(await filesLeftUnder(scratch)).toEqual({ files: 0, bytes: 0 });
  }, 60_000);

  it('guessing a known email from many clients never locks its owner out', async () => {
    const http = request(api.url);
    const owner = await signup(http, 'target');
    const login = (address: string, password: string) =>
      http.post('/api/v1/auth/login').set('X-Forwarded-For', address).send({ email: owner.email, password });
    // One client guessing as fast as it can, then twenty more guessing a little each.
    const started = Date.now();
    const hard: number[] = [];
    for (let i = 0; i < 60; i++) hard.push((await login('203.0.113.99', `guess-${i}-guess`)).status);
    const hardMs = Date.now() - started;
    const spread: number[] = [];
    for (let c = 0; c < 20; c++) {
      for (let i = 0; i < 5; i++) spread.push((await login(`198.18.0.${c + 1}`, `try-${c}-${i}-x`)).status);
    }
    const ownerLogin = await login('192.0.2.10', owner.password);
    const checked = hard.filter((s) => s === 401).length;
    printFigures('Password guessing against one known email (5 free failures per client, then waits from 1 s)', [
      ['one client, 60 guesses', `${formatHistogram(histogram(hard))} in ${ms(hardMs)}`],
      ['its guesses that reached the password check', checked],
      ['twenty clients, 5 guesses each', formatHistogram(histogram(spread))],
      ['the owner, from their own address', ownerLogin.status],
    ]);
    expect([...hard, ...spread].every((s) => s === 401 || s === 429)).toBe(true);
    // Past the free failures the waits double, so a fast guesser gets a handful of guesses checked, not sixty.
    expect(checked).toBeLessThan(15);
    expect(ownerLogin.status).toBe(200);
  });
});
