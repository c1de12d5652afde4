import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '@docconv/config';
import {
  assertDownloadablePath,
  assertDownloadName,
  attachmentDisposition,
  contentTypeOf,
  resolveTtlSeconds,
} from './download-link';
import { assertStoragePath, Storage, type SignedUrlOptions } from './storage.port';

/**
 * A stream is sent in parts of this size (S3's multipart upload), two at a time: its length need
 * not be known, and no more than a few parts of it are ever held in memory.
 */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, …), each storage path a key under the
 * configured prefix. Download links are presigned GetObject URLs that the store itself serves.
 */
export class S3Storage extends Storage {
  private readonly client: S3Client;
  /** Signs download links for the address browsers use, which may differ from the services' one. */
  private readonly linkSigner: S3Client;

  constructor(
    private readonly settings: S3Settings,
    private readonly defaultTtlSeconds: number,
  ) {
    super();
    this.client = createClient(settings, settings.endpoint);
    this.linkSigner = settings.publicEndpoint ? createClient(settings, settings.publicEndpoint) : this.client;
  }

  /** Lets go of the client's open connections. */
  close(): void {
    this.client.destroy();
    if (this.linkSigner !== this.client) this.linkSigner.destroy();
  }

  /**
   * A buffer in one PutObject; a stream as a multipart upload (one PutObject when it fits in a
   * part), whose parts are abandoned on the store if the stream fails.
   */
  async put(path: string, body: Buffer | Readable): Promise<{ bytes: number }> {
    const target = { Bucket: this.settings.bucket, Key: this.key(path), ContentType: contentTypeOf(path) };
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand({ ...target, Body: body, ContentLength: body.length }));
      return { bytes: body.length };
    }
    const tally = { bytes: 0 };
    const upload = new Upload({
      client: this.client,
      params: { ...target, Body: Readable.from(counted(body, tally)) },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    await upload.done();
    return { bytes: tally.bytes };
  }

  async read(path: string): Promise<Buffer> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(path) }));
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  async stream(path: string): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(path) }));
    return object.Body as Readable;
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(path) }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Lists page by page and deletes each page in one request, so any number of objects goes. */
  async deletePrefix(prefix: string): Promise<void> {
    const base = this.key(prefix);
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: base, ContinuationToken: continuationToken }),
      );
      const keys = (page.Contents ?? [])
        .map((object) => object.Key!)
        .filter((key) => key === base || key.startsWith(`${base}/`));
      await this.deleteKeys(keys);
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async check(): Promise<void> {
    const probe = `health/${randomUUID()}`;
    await this.put(probe, Buffer.from('ok'));
    const back = await this.read(probe);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(probe) }));
    if (back.toString() !== 'ok') throw new Error('storage returned different bytes than were written');
  }

  async signedUrl(path: string, options: SignedUrlOptions): Promise<string> {
    const key = this.key(assertDownloadablePath(path));
    const filename = options.filename === undefined ? undefined : assertDownloadName(options.filename);
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ResponseContentDisposition: filename === undefined ? undefined : attachmentDisposition(filename),
    });
    return getSignedUrl(this.linkSigner, command, {
      expiresIn: resolveTtlSeconds(options.ttlSeconds, this.defaultTtlSeconds),
    });
  }

  private key(path: string): string {
    const checked = assertStoragePath(path);
    return this.settings.prefix ? `${this.settings.prefix}/${checked}` : checked;
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const result = await this.client.send(
      new DeleteObjectsCommand({
        Bucket: this.settings.bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    const failed = result.Errors ?? [];
    if (failed.length > 0) {
      const first = failed[0];
      throw new Error(`Could not delete ${failed.length} object(s), e.g. ${first.Key}: ${first.Code} ${first.Message}`);
    }
  }
}

function createClient(settings: S3Settings, endpoint: string | null): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: endpoint ?? undefined,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 demands them: S3-compatible stores do not all understand the
    // chunked, checksummed uploads the SDK would otherwise send.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The stream's bytes as they pass, counted into `tally`. */
async function* counted(source: Readable, tally: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    tally.bytes += bytes.length;
    yield bytes;
  }
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)
  );
}
