import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { privateStack } from './support/private-stack';

const endpoint = process.env.DOCCONV_TEST_S3_ENDPOINT;
if (!endpoint)
  throw new Error('DOCCONV_TEST_S3_ENDPOINT is not set: run the tests with `npm test`, which starts an S3 server.');
const bucket = `docconv-e2e-${randomBytes(4).toString('hex')}`;
const credentials = { accessKeyId: 'docconv-e2e', secretAccessKey: 'docconv-e2e-secret' };

describe('the API and a worker on S3 storage', () => {
  const raw = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  // Before the stack's own beforeAll: the API checks its storage as it starts.
  beforeAll(() => raw.send(new CreateBucketCommand({ Bucket: bucket })));
  afterAll(() => raw.destroy());
  const { stack, start } = privateStack('s3', {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: 'deployment-1',
  });

  it('converts a job whose files live in the bucket, and serves its result and a conversion from there', async () => {
    const { t, key } = stack;
    await start();
    const pdf = await makePdf(['Stored in a bucket, page one.', 'Stored in a bucket, page two.']);
    const job = (await upload(t.http, key.key, [{ name: 'bucket.pdf', content: pdf }])).body;
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    expect((await waitForJob(t.http, key.key, job.job_id as string)).status).toBe('done');

    const markdown = await t.http.get(`/api/v1/jobs/${job.job_id}/download`).set('X-API-Key', key.key).expect(200);
    expect(markdown.text).toContain('Stored in a bucket, page one.');
    expect(markdown.text).toContain('Stored in a bucket, page two.');

    const converted = await t.http
      .post(`/api/v1/jobs/${job.job_id}/convert`)
      .set('X-API-Key', key.key)
      .send({ format: 'docx' })
      .expect(200);
    const link = new URL(converted.body.download_url as string);
    expect(link.origin).toBe(endpoint);
    const docx = await fetch(link);
    expect(docx.status).toBe(200);
    expect(
      Buffer.from(await docx.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    const listed = await raw.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'deployment-1/' }));
    const keys = (listed.Contents ?? []).map((object) => object.Key!);
    expect(keys).toEqual(
      expect.arrayContaining([
        `deployment-1/results/${job.job_id}/result.md`,
        expect.stringMatching(new RegExp(`^deployment-1/results/${job.job_id}/.+\\.docx$`)),
      ]),
    );
    expect(keys.every((k) => k.startsWith('deployment-1/'))).toBe(true);
  });
});
