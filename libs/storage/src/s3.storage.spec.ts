import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BucketAlreadyOwnedByYou, CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '@docconv/config';
import { LocalDiskStorage } from './local-disk.storage';
import { S3Storage } from './s3.storage';
import type { Storage } from './storage.port';

const BUCKET = 'docconv-test';
/** The test server (moto) takes any key id and secret. */
const KEY = 'docconv-test-key';

/** Bytes that are not text, so any re-encoding along the way shows. */
const BINARY = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface ContractSubject {
  storage: Storage;
  /** A scratch folder outside the store, for source files. */
  scratch: string;
  /** The same kind of store, but one that cannot be written (for `check`). */
  broken: Storage;
}

/**
 * What every storage adapter must do, whatever keeps the bytes. Run once per adapter, so
 * the local disk and S3 stores behave the same for the code that uses them.
 */
function describeStorageContract(name: string, open: () => ContractSubject): void {
  describe(`${name} storage`, () => {
    let storage: Storage;
    let scratch: string;
    beforeAll(() => ({ storage, scratch } = open()));

    it('keeps a buffer byte for byte and reports its size', async () => {
      await expect(storage.put('results/c1/result.bin', BINARY)).resolves.toEqual({ bytes: BINARY.length });
      expect((await storage.read('results/c1/result.bin')).equals(BINARY)).toBe(true);
    });

    it('keeps a stream of unknown length byte for byte', async () => {
      const chunks = [BINARY.subarray(0, 1000), BINARY.subarray(1000, 40_000), BINARY.subarray(40_000)];
      await expect(storage.put('inputs/c2/1-a.bin', Readable.from(chunks))).resolves.toEqual({ bytes: BINARY.length });
      expect((await storage.read('inputs/c2/1-a.bin')).equals(BINARY)).toBe(true);
    });

    it('keeps a file read stream byte for byte', async () => {
      const source = join(scratch, 'source.bin');
      await writeFile(source, BINARY);
      await expect(storage.put('inputs/c3/1-a.bin', createReadStream(source))).resolves.toEqual({
        bytes: BINARY.length,
      });
      expect((await storage.read('inputs/c3/1-a.bin')).equals(BINARY)).toBe(true);
    });

    it('replaces what was at a path', async () => {
      await storage.put('results/c4/result.md', Buffer.from('first'));
      await storage.put('results/c4/result.md', Buffer.from('second'));
      expect((await storage.read('results/c4/result.md')).toString()).toBe('second');
    });

    it('streams a stored file', async () => {
      await storage.put('results/c5/result.bin', BINARY);
      expect((await collect(await storage.stream('results/c5/result.bin'))).equals(BINARY)).toBe(true);
    });

    it('rejects reading or streaming what is not there', async () => {
      await expect(storage.read('results/c6/missing.md')).rejects.toThrow();
      await expect(storage.stream('results/c6/missing.md')).rejects.toThrow();
    });

    it('says whether a file exists; a folder of files is not one', async () => {
      await storage.put('inputs/c7/1-a.pdf', Buffer.from('%PDF'));
      await expect(storage.exists('inputs/c7/1-a.pdf')).resolves.toBe(true);
      await expect(storage.exists('inputs/c7/2-b.pdf')).resolves.toBe(false);
      await expect(storage.exists('inputs/c7')).resolves.toBe(false);
    });

    it('deletes a prefix and everything under it, and nothing beside it', async () => {
      await storage.put('inputs/c8/1-a.pdf', Buffer.from('a'));
      await storage.put('inputs/c8/nested/2-b.pdf', Buffer.from('b'));
      await storage.put('inputs/c8-sibling/1-a.pdf', Buffer.from('c'));
      await storage.deletePrefix('inputs/c8');
      await expect(storage.exists('inputs/c8/1-a.pdf')).resolves.toBe(false);
      await expect(storage.exists('inputs/c8/nested/2-b.pdf')).resolves.toBe(false);
      await expect(storage.exists('inputs/c8-sibling/1-a.pdf')).resolves.toBe(true);
    });

    it('deletes more files under a prefix than one listing page holds', async () => {
      const paths = Array.from({ length: 1005 }, (_, i) => `inputs/c9/${i}-page.txt`);
      for (let i = 0; i < paths.length; i += 50) {
        await Promise.all(paths.slice(i, i + 50).map((path) => storage.put(path, Buffer.from(path))));
      }
      await expect(storage.exists(paths[1004])).resolves.toBe(true);
      await storage.deletePrefix('inputs/c9');
      const left: string[] = [];
      for (let i = 0; i < paths.length; i += 50) {
        const batch = paths.slice(i, i + 50);
        const found = await Promise.all(batch.map((path) => storage.exists(path)));
        left.push(...batch.filter((_, n) => found[n]));
      }
      expect(left).toEqual([]);
    });

    it('treats deleting a prefix with nothing under it as done', async () => {
      await expect(storage.deletePrefix('inputs/c10-never-written')).resolves.toBeUndefined();
    });

    it('passes its health check, and fails it when it cannot be written', async () => {
      await expect(storage.check()).resolves.toBeUndefined();
      await expect(open().broken.check()).rejects.toThrow();
    });

    it.each(['../outside', '/etc/passwd', 'inputs/../../etc/passwd', 'other/x', 'inputs', 'results//x'])(
      'refuses the path %j for every operation',
      async (path) => {
        await expect(storage.put(path, Buffer.from('x'))).rejects.toThrow(/Refusing storage path/);
        await expect(storage.read(path)).rejects.toThrow(/Refusing storage path/);
        await expect(storage.stream(path)).rejects.toThrow(/Refusing storage path/);
        await expect(storage.exists(path)).rejects.toThrow(/Refusing storage path/);
        await expect(storage.deletePrefix(path)).rejects.toThrow(/Refusing storage path/);
      },
    );

    it.each(['health/probe', 'results/../health/probe', 'results/a\nb', '/results/x'])(
      'makes no download link to %j',
      async (path) => {
        await expect(storage.signedUrl(path, {})).rejects.toThrow(/Refusing a download link/);
      },
    );

    it('refuses a download link lifetime no backend can honour', async () => {
      await expect(storage.signedUrl('results/c11/result.md', { ttlSeconds: 0 })).rejects.toThrow(RangeError);
      await expect(storage.signedUrl('results/c11/result.md', { ttlSeconds: 8 * 24 * 3600 })).rejects.toThrow(
        RangeError,
      );
    });
  });
}

let endpoint: string;
let scratch: string;
const opened: S3Storage[] = [];

function s3Settings(overrides: Partial<S3Settings> = {}): S3Settings {
  return {
    endpoint,
    publicEndpoint: null,
    region: 'us-east-1',
    bucket: BUCKET,
    accessKeyId: KEY,
    secretAccessKey: KEY,
    forcePathStyle: true,
    prefix: 'tenant/a',
    ...overrides,
  };
}

function openS3(overrides: Partial<S3Settings> = {}, defaultTtlSeconds = 900): S3Storage {
  const storage = new S3Storage(s3Settings(overrides), defaultTtlSeconds);
  opened.push(storage);
  return storage;
}

/** A client of the test server with no prefix: what the store holds, seen from outside. */
function rawClient(): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
  });
}

beforeAll(async () => {
  const given = process.env.DOCCONV_TEST_S3_ENDPOINT;
  if (!given)
    throw new Error('DOCCONV_TEST_S3_ENDPOINT is not set: run the tests with `npm test`, which starts an S3 server.');
  endpoint = given;
  scratch = await mkdtemp(join(tmpdir(), 'docconv-storage-contract-'));
  const raw = rawClient();
  try {
    await raw.send(new CreateBucketCommand({ Bucket: BUCKET }));
  } catch (error) {
    if (!(error instanceof BucketAlreadyOwnedByYou)) throw error;
  } finally {
    raw.destroy();
  }
});

afterAll(async () => {
  for (const storage of opened) storage.close();
  await rm(scratch, { recursive: true, force: true });
});

describeStorageContract('local disk', () => {
  const links = { secret: 'z'.repeat(32), defaultTtlSeconds: 900, publicBaseUrl: null };
  return {
    storage: new LocalDiskStorage(join(scratch, 'local'), links),
    scratch,
    // A folder can never be made below a regular file, such as this test's own source.
    broken: new LocalDiskStorage(join(__filename, 'root'), links),
  };
});

describeStorageContract('S3', () => ({
  storage: openS3(),
  scratch,
  broken: openS3({ bucket: 'no-such-bucket' }),
}));

describe('S3 storage specifics', () => {
  it('keeps every key under its prefix, so deployments sharing a bucket do not see each other', async () => {
    const tenantA = openS3({ prefix: 'tenant/a' });
    const tenantB = openS3({ prefix: 'tenant/b' });
    await tenantA.put('results/p1/result.md', Buffer.from('# A'));
    await expect(tenantB.exists('results/p1/result.md')).resolves.toBe(false);

    const raw = rawClient();
    try {
      const head = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'tenant/a/results/p1/result.md' }));
      expect(head.ContentLength).toBe(3);
      expect(head.ContentType).toBe('text/markdown; charset=utf-8');
    } finally {
      raw.destroy();
    }
  });

  it('makes a presigned link that serves the bytes without credentials, under the signed download name', async () => {
    const storage = openS3();
    await storage.put('results/p2/result.xlsx', BINARY);
    const url = new URL(await storage.signedUrl('results/p2/result.xlsx', { filename: 'Résumé 2026.xlsx' }));
    expect(url.origin).toBe(endpoint);
    expect(url.pathname).toBe(`/${BUCKET}/tenant/a/results/p2/result.xlsx`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ 2026.xlsx"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.xlsx`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(BINARY)).toBe(true);
  });

  it('signs for the lifetime asked for, or the configured default', async () => {
    const storage = openS3({}, 120);
    const byDefault = new URL(await storage.signedUrl('results/p3/result.md', {}));
    const asked = new URL(await storage.signedUrl('results/p3/result.md', { ttlSeconds: 30 }));
    expect(byDefault.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(asked.searchParams.get('X-Amz-Expires')).toBe('30');
  });

  it('signs links for the public endpoint when browsers reach the store by another address', async () => {
    const publicEndpoint = endpoint.replace('127.0.0.1', 'localhost');
    const storage = openS3({ publicEndpoint });
    await storage.put('results/p4/result.md', Buffer.from('# Public'));
    const url = new URL(await storage.signedUrl('results/p4/result.md', {}));
    expect(url.origin).toBe(publicEndpoint);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('# Public');
  });

  it('sends a large stream of unknown length in parts, holding a few of them at a time', async () => {
    const storage = openS3();
    // 20 MiB in 64 KiB chunks, made as they are read: three parts of at most 8 MiB.
    const chunk = (n: number) => Buffer.alloc(64 * 1024, n % 251);
    const chunks = 320;
    const source = Readable.from(
      (function* () {
        for (let n = 0; n < chunks; n++) yield chunk(n);
      })(),
    );
    await expect(storage.put('results/p8/result.bin', source)).resolves.toEqual({ bytes: chunks * 64 * 1024 });
    const back = await storage.read('results/p8/result.bin');
    expect(back.length).toBe(chunks * 64 * 1024);
    for (const n of [0, 1, 127, 128, 319])
      expect(back.subarray(n * 64 * 1024, (n + 1) * 64 * 1024).equals(chunk(n))).toBe(true);
    const raw = rawClient();
    try {
      const head = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'tenant/a/results/p8/result.bin' }));
      expect(head.ETag).toMatch(/-3"$/); // a multipart object's ETag names its part count
      expect(head.ContentType).toBe('application/octet-stream');
    } finally {
      raw.destroy();
    }
  });

  it('leaves no object when the stream fails midway', async () => {
    const storage = openS3();
    const failing = Readable.from(
      (async function* () {
        for (let n = 0; n < 200; n++) yield Buffer.alloc(64 * 1024, 1);
        throw new Error('the client went away');
      })(),
    );
    await expect(storage.put('results/p9/result.bin', failing)).rejects.toThrow('the client went away');
    await expect(storage.exists('results/p9/result.bin')).resolves.toBe(false);
  });

  it('tells a missing object from an unreachable store', async () => {
    const unreachable = openS3({ endpoint: 'http://127.0.0.1:9' });
    await expect(openS3().exists('results/p7/missing.md')).resolves.toBe(false);
    await expect(unreachable.exists('results/p7/missing.md')).rejects.toThrow();
  });
});

/**
 * Download links on a store that checks them as S3 does: s3s-fs, started by the test stack with a
 * key of its own (moto, which the rest of this suite runs on, serves a link whatever was done to
 * it). The signature covers the object, the lifetime, the signing time and the download name; a
 * link past its lifetime is refused however well signed.
 */
describe('S3 download links on a store that checks signatures', () => {
  const bucket = 'docconv-signed-links';
  let settings: Partial<S3Settings>;
  let storage: S3Storage;

  beforeAll(async () => {
    const [given, accessKeyId, secretAccessKey] = [
      'DOCCONV_TEST_SIGV4_S3_ENDPOINT',
      'DOCCONV_TEST_SIGV4_S3_ACCESS_KEY_ID',
      'DOCCONV_TEST_SIGV4_S3_SECRET_ACCESS_KEY',
    ].map((name) => process.env[name]);
    if (!given || !accessKeyId || !secretAccessKey)
      throw new Error(
        'DOCCONV_TEST_SIGV4_S3_* are not set: run the tests with `npm test`, which starts an S3 server that checks signatures.',
      );
    settings = { endpoint: given, accessKeyId, secretAccessKey, bucket };
    const raw = new S3Client({
      region: 'us-east-1',
      endpoint: given,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    });
    try {
      await raw.send(new CreateBucketCommand({ Bucket: bucket }));
    } catch (error) {
      if (!(error instanceof BucketAlreadyOwnedByYou)) throw error;
    } finally {
      raw.destroy();
    }
    storage = openS3(settings);
    await storage.put('results/s1/result.md', Buffer.from('# Yours'));
    // Another user's result beside it: a link altered to point there must not reach it.
    await storage.put('results/s2/result.md', Buffer.from('# Not yours'));
  });

  it('serves a link as it was signed, under its download name', async () => {
    const response = await fetch(await storage.signedUrl('results/s1/result.md', { filename: 'Report.md' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await response.text()).toBe('# Yours');
  });

  it('refuses a link signed with another secret', async () => {
    const forged = openS3({ ...settings, secretAccessKey: 'not-the-secret' });
    const response = await fetch(await forged.signedUrl('results/s1/result.md', {}));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });

  it.each<[string, (url: URL) => void]>([
    ['object', (url) => (url.pathname = url.pathname.replace('/results/s1/', '/results/s2/'))],
    [
      'signature',
      (url) => url.searchParams.set('X-Amz-Signature', flipLastHexDigit(url.searchParams.get('X-Amz-Signature')!)),
    ],
    ['lifetime', (url) => url.searchParams.set('X-Amz-Expires', '604800')],
    [
      'signing time',
      (url) => url.searchParams.set('X-Amz-Date', laterAmzDate(url.searchParams.get('X-Amz-Date')!, 60)),
    ],
    [
      'download name',
      (url) => url.searchParams.set('response-content-disposition', 'attachment; filename="invoice.exe"'),
    ],
  ])('refuses a link whose %s was altered', async (_, alter) => {
    const url = new URL(await storage.signedUrl('results/s1/result.md', { filename: 'Report.md' }));
    expect((await fetch(url)).status).toBe(200);
    alter(url);
    const response = await fetch(url);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });

  it('refuses a link once it has expired', async () => {
    const url = await storage.signedUrl('results/s1/result.md', { ttlSeconds: 1 });
    expect((await fetch(url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const response = await fetch(url);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
  });
});

function flipLastHexDigit(hex: string): string {
  return hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
}

/** An `X-Amz-Date` (`20261205T101500Z`) `seconds` later. */
function laterAmzDate(amzDate: string, seconds: number): string {
  const iso = amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
  return new Date(Date.parse(iso) + seconds * 1000).toISOString().replace(/[-:]|\.\d{3}/g, '');
}
