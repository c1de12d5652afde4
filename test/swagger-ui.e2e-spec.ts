import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { LedgerService } from '@docconv/billing';
import { TEST_OUTPUT } from '@docconv/testing';
import { createKey, signup, type TestKey } from './support/accounts';
import { launchChromium } from './support/chromium';
import { makePdf } from './support/fixtures';
import { waitForJob } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

const SHOTS = join(TEST_OUTPUT, 'swagger-ui');
const TEXT = 'Swagger UI upload of the quarterly summary';

/** What the live response section of an executed operation shows. */
interface LiveResponse {
  status: number;
  body: string;
  headers: string;
}

describe('Swagger UI in a real browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let key: TestKey;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    origin = new URL((await t.app.getUrl()).replace('[::1]', '127.0.0.1')).origin;
    browser = await launchChromium();
    const user = await signup(t.http, 'swagger-ui');
    key = await createKey(t.http, user);
    await t.app.get(LedgerService).post({
      userId: user.userId,
      type: 'grant',
      points: 100_000,
      description: 'Swagger UI test credits',
      idempotencyKey: `swagger-ui-test:${user.userId}`,
    });
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Expands an operation (its id in the document) and turns on "Try it out". */
  async function tryOut(page: Page, operationId: string): Promise<Locator> {
    const operation = page.locator(`#operations-jobs-${operationId}`);
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('button.execute').waitFor();
    return operation;
  }

  /** Clicks Execute and reads the status, body and headers the live response section shows. */
  async function execute(operation: Locator): Promise<LiveResponse> {
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table .response');
    await live.waitFor();
    const status = Number((await live.locator('.response-col_status').innerText()).trim());
    const description = live.locator('.response-col_description');
    const bodies = description.locator('.highlight-code pre');
    const headers = description.locator('pre.microlight').filter({ hasText: /content-type/i });
    return {
      status,
      body: (await bodies.count()) > 0 ? await bodies.first().innerText() : '',
      headers: await headers.innerText(),
    };
  }

  async function fillJobId(operation: Locator, jobId: string): Promise<void> {
    await operation.locator('tr[data-param-name="job_id"] input').fill(jobId);
  }

  it('authorizes with an API key, then uploads, confirms, reads and downloads a job, each 2xx, calling no other host', async () => {
    const pdf = await makePdf([TEXT]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`${origin}/api/docs`);
    await page.locator('#operations-jobs-Jobs_upload').waitFor();

    // Authorize: the API key scheme of the dialog, as a reader would.
    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.dialog-ux');
    const apiKeyScheme = dialog.locator('.auth-container').filter({ hasText: 'X-API-Key' });
    await apiKeyScheme.locator('#api_key_value').fill(key.key);
    await apiKeyScheme.getByRole('button', { name: 'Apply credentials' }).click();
    await apiKeyScheme.getByRole('button', { name: 'Remove authorization' }).waitFor();
    await dialog.locator('button.btn-done').first().click();
    await dialog.waitFor({ state: 'detached' });

    // Upload: only a file is picked; every other field is as Swagger UI fills it.
    const upload = await tryOut(page, 'Jobs_upload');
    const form = upload.locator('.opblock-section-request-body');
    const pickers = form.locator('tr[data-property-name="files"] input[type=file]');
    expect(await pickers.count()).toBe(1);
    await pickers.first().setInputFiles({ name: 'summary.pdf', mimeType: 'application/pdf', buffer: pdf });
    // What Swagger UI will send for the fields it filled itself: defaults and empty values only.
    const filled: Record<string, string> = {};
    for (const row of await form.locator('tr[data-property-name]').all()) {
      const name = (await row.getAttribute('data-property-name')) ?? '';
      const field = row.locator('select, input[type=text]');
      if ((await field.count()) > 0) filled[name] = await field.first().inputValue();
    }
    expect(filled).toEqual({
      ocr_model: 'premium',
      ocr_engine: '',
      columns: '',
      callback_url: '',
      prompt: '',
      dpi: '300',
      relative_paths: '',
      docling_refinement: 'false',
      page_furniture: 'drop',
      html_content: 'main',
    });
    const uploaded = await execute(upload);
    await upload.screenshot({ path: join(SHOTS, 'upload.png') });
    expect({ status: uploaded.status, body: uploaded.body }).toMatchObject({ status: 201 });
    const preview = JSON.parse(uploaded.body) as { job_id: string; status: string; files: { path: string }[] };
    expect(preview).toMatchObject({ status: 'pending', files: [{ path: 'summary.pdf' }] });
    const jobId = preview.job_id;

    const confirm = await tryOut(page, 'Jobs_confirm');
    await fillJobId(confirm, jobId);
    const confirmed = await execute(confirm);
    expect({ status: confirmed.status, body: JSON.parse(confirmed.body) }).toMatchObject({
      status: 200,
      body: { job_id: jobId, status: 'queued' },
    });

    // The worker converts the job meanwhile; the page asks for its record once it is done.
    expect(await waitForJob(t.http, key.key, jobId)).toMatchObject({ status: 'done' });
    const get = await tryOut(page, 'Jobs_get');
    await fillJobId(get, jobId);
    const record = await execute(get);
    expect({ status: record.status, body: JSON.parse(record.body) }).toMatchObject({
      status: 200,
      body: { job_id: jobId, status: 'done', downloadable: true },
    });

    const download = await tryOut(page, 'Jobs_download');
    await fillJobId(download, jobId);
    const format = download.locator('tr[data-param-name="format"] select');
    expect(await format.inputValue()).toBe('md');
    await format.selectOption('md');
    const served = await execute(download);
    expect(served.status).toBe(200);
    expect(served.headers).toMatch(/content-type: text\/markdown/i);
    expect(served.headers).toMatch(/content-disposition: attachment/i);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      download.locator('.live-responses-table').getByRole('link', { name: 'Download file' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/\.md$/);
    expect(await readFile(await file.path(), 'utf8')).toContain(TEXT);
    await download.screenshot({ path: join(SHOTS, 'download.png') });

    expect(problems).toEqual([]);
    expect(await page.locator('img[src*="validator"]').count()).toBe(0);
    const elsewhere = requested.filter((address) => !address.startsWith('data:') && new URL(address).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(requested).toContain(`${origin}/api/v1/jobs/upload`);
    await context.close();
  });
});
