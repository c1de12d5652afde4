import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { privateStack } from './support/private-stack';
import { testBucket } from './support/s3';

/** On the S3 server that checks signatures: every request the API and the worker sign, and every link they give out, is checked as S3 would. */
const bucket = testBucket('e2e', { prefix: 'deployment-1', server: 'sigv4' });

describe('the API and a worker on S3 storage', () => {
  const raw = bucket.client();
  // Before the stack's own beforeAll: the API checks its storage as it starts.
  beforeAll(() => bucket.create());
  afterAll(() => raw.destroy());
  const { stack, start } = privateStack('s3', bucket.env);

  it('converts a job whose files live in the bucket, and serves its result and a conversion from there by a link the store refuses once altered', async () => {
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
    expect(link.origin).toBe(bucket.env.S3_ENDPOINT);
    const docx = await fetch(link);
    expect(docx.status).toBe(200);
    expect(
      Buffer.from(await docx.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    // The link is signed for its object, lifetime and download name: altered, the store refuses it.
    for (const alter of [
      (url: URL) =>
        (url.pathname = url.pathname.replace(/\/results\/[^/]+\/[^/]+$/, `/results/${job.job_id}/result.md`)),
      (url: URL) => url.searchParams.set('X-Amz-Expires', '604800'),
      (url: URL) => url.searchParams.set('response-content-disposition', 'attachment; filename="bucket.exe"'),
    ]) {
      const altered = new URL(link);
      alter(altered);
      const refused = await fetch(altered);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    }

    const listed = await raw.send(new ListObjectsV2Command({ Bucket: bucket.env.S3_BUCKET, Prefix: 'deployment-1/' }));
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
