import JSZip from 'jszip';
import { DataSource } from 'typeorm';
import { plain, writeMarkdown, type Document } from '@docconv/model';
import { documentPath, Storage } from '@docconv/storage';
import { createKey, signup, type TestKey } from './support/accounts';
import { makeDocx, makePdf } from './support/fixtures';
import { binary, pathOf, upload, waitForJob, type UploadFile } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The job's document (results/<job>/document.json): stored beside result.md by the worker, the
 * Markdown written from it, and what conversions render; jobs finished before it convert from
 * their Markdown.
 */
describe('a job’s document beside its Markdown', () => {
  let t: TestApp;
  let key: TestKey;
  let storage: Storage;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'document');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
    storage = t.app.get(Storage);
  });
  afterAll(() => t.close());

  async function finished(files: UploadFile[]): Promise<string> {
    const res = await upload(t.http, key.key, files);
    expect(res.status).toBe(201);
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const job = await waitForJob(t.http, key.key, res.body.job_id as string);
    expect(job.status).toBe('done');
    return res.body.job_id as string;
  }
  const markdownOf = async (jobId: string) =>
    (await t.http.get(`/api/v1/jobs/${jobId}/download`).set('X-API-Key', key.key).expect(200)).text;
  const storedDocument = async (jobId: string) =>
    JSON.parse((await storage.read(documentPath(jobId))).toString('utf8')) as Document;

  /** The XML of `part` in the file a conversion of the job to `format` made. */
  async function convertedPart(jobId: string, format: 'docx' | 'hwpx', part: string): Promise<string> {
    const res = await t.http.post(`/api/v1/jobs/${jobId}/convert`).set('X-API-Key', key.key).send({ format });
    expect(res.status).toBe(200);
    const file = await t.http
      .get(pathOf(res.body.download_url as string))
      .buffer(true)
      .parse(binary)
      .expect(200);
    const zip = await JSZip.loadAsync(file.body as Buffer);
    return zip.file(part)!.async('string');
  }

  /** The text of the DOCX a conversion made of the job. */
  const docxText = async (jobId: string) =>
    (await convertedPart(jobId, 'docx', 'word/document.xml')).replace(/<[^>]+>/g, ' ');

  it('stores the document of a job of several files, each block naming its file, and writes result.md from it byte for byte', async () => {
    const jobId = await finished([
      { name: 'minutes.docx', content: await makeDocx(['Minutes of the board.', 'The budget was approved.']) },
      { name: 'figures.pdf', content: await makePdf(['Quarterly figures, page one.', 'Page two of the figures.']) },
    ]);
    const markdown = await markdownOf(jobId);
    const document = await storedDocument(jobId);
    expect(document.version).toBe(1);
    expect(writeMarkdown(document)).toBe(markdown);
    expect([...new Set(document.blocks.map((block) => block.from.file))]).toEqual(['minutes.docx', 'figures.pdf']);
    // An internal file: the API offers no download of it.
    const refused = await t.http.get(`/api/v1/jobs/${jobId}/download?format=document`).set('X-API-Key', key.key);
    expect(refused.status).toBe(400);
  });

  it('converts from document.json: a change to the stored document shows in the DOCX', async () => {
    const jobId = await finished([{ name: 'notes.docx', content: await makeDocx(['Original wording.']) }]);
    expect(await docxText(jobId)).toContain('Original wording.');
    const altered: Document = {
      version: 1,
      blocks: [{ type: 'paragraph', content: plain('Wording from the document.'), from: { file: 'notes.docx' } }],
    };
    await storage.put(documentPath(jobId), Buffer.from(JSON.stringify(altered), 'utf8'));
    // A format not converted yet renders now, from the altered document.
    const section = await convertedPart(jobId, 'hwpx', 'Contents/section0.xml');
    expect(section).toContain('Wording from the document.');
    expect(section).not.toContain('Original wording.');
  });

  it('converts a job finished before documents were stored from its Markdown', async () => {
    const jobId = await finished([{ name: 'older.docx', content: await makeDocx(['Written before documents.']) }]);
    await storage.deletePrefix(documentPath(jobId));
    expect(await storage.exists(documentPath(jobId))).toBe(false);
    expect(await docxText(jobId)).toContain('Written before documents.');
  });
});
