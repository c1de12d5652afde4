import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';

/** A bucket of its own on one of the tests' S3 servers (started by `npm test`). */
export interface TestBucket {
  /** The variables that put an API or a worker on the bucket. */
  env: Record<string, string>;
  /** A client of the server with the bucket's credentials (destroy it when done). */
  client(): S3Client;
  /** Makes the bucket; before any API or worker starts on it. */
  create(): Promise<void>;
}

/**
 * The tests' S3 servers: `moto` (DOCCONV_TEST_S3_ENDPOINT) takes any key and checks no signature;
 * `sigv4` (DOCCONV_TEST_SIGV4_S3_*, s3s-fs) takes one key and refuses every request and presigned
 * link whose signature does not match, and presigned links past their lifetime.
 */
export type TestS3Server = 'moto' | 'sigv4';

export function testBucket(tag: string, options: { prefix?: string; server?: TestS3Server } = {}): TestBucket {
  const { endpoint, credentials } = serverOf(options.server ?? 'moto', tag);
  const bucket = `docconv-${tag}-${randomBytes(4).toString('hex')}`;
  const client = () => new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  return {
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...(options.prefix ? { S3_PREFIX: options.prefix } : {}),
    },
    client,
    create: async () => {
      const s3 = client();
      try {
        await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      } finally {
        s3.destroy();
      }
    },
  };
}

function serverOf(
  server: TestS3Server,
  tag: string,
): { endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string } } {
  const names =
    server === 'moto'
      ? ['DOCCONV_TEST_S3_ENDPOINT']
      : [
          'DOCCONV_TEST_SIGV4_S3_ENDPOINT',
          'DOCCONV_TEST_SIGV4_S3_ACCESS_KEY_ID',
          'DOCCONV_TEST_SIGV4_S3_SECRET_ACCESS_KEY',
        ];
  const [endpoint, accessKeyId, secretAccessKey] = names.map((name) => process.env[name]);
  if (names.some((name) => !process.env[name]))
    throw new Error(
      `${names.join(', ')} not set: run the tests through the stack (npm test), which starts the S3 servers.`,
    );
  return {
    endpoint: endpoint!,
    credentials:
      server === 'moto'
        ? { accessKeyId: `docconv-${tag}`, secretAccessKey: `docconv-${tag}-secret` }
        : { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! },
  };
}
