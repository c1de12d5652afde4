import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';

/** A bucket of its own on the tests' S3 server (DOCCONV_TEST_S3_ENDPOINT, started by `npm test`). */
export interface TestBucket {
  /** The variables that put an API or a worker on the bucket. */
  env: Record<string, string>;
  /** A client of the server with the bucket's credentials (destroy it when done). */
  client(): S3Client;
  /** Makes the bucket; before any API or worker starts on it. */
  create(): Promise<void>;
}

export function testBucket(tag: string, prefix?: string): TestBucket {
  const endpoint = process.env.DOCCONV_TEST_S3_ENDPOINT;
  if (!endpoint)
    throw new Error(
      'DOCCONV_TEST_S3_ENDPOINT is not set: run the tests through the stack (npm test), which starts an S3 server.',
    );
  const bucket = `docconv-${tag}-${randomBytes(4).toString('hex')}`;
  const credentials = { accessKeyId: `docconv-${tag}`, secretAccessKey: `docconv-${tag}-secret` };
  const client = () => new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  return {
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...(prefix ? { S3_PREFIX: prefix } : {}),
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
