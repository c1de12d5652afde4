import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import mammoth from 'mammoth';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { LedgerService } from '@docconv/billing';
import { REPO_ROOT, TEST_OUTPUT } from '@docconv/testing';
import { pdfBytes } from '../libs/documents/src/pdf/testing/pdf-bytes';
import { makePdf, makePicturePng } from './support/fixtures';
import { launchChromium } from './support/chromium';
import { FREE_PAGES_PER_MONTH } from './support/money';
import { createTestApp, uniqueEmail, type TestApp } from './support/test-app';

const CONSOLE_DIST = join(REPO_ROOT, 'dist', 'console');
const SHOTS = join(TEST_OUTPUT, 'console');
const FUNDS = 100_000;
const TOKEN_SECONDS = 60;
const PASSWORD = 'a long enough password';
const PAGES = ['Quarterly report', 'Revenue grew in every region', 'Costs', 'Outlook', 'Risks', 'Appendix'];

describe('web console in a real browser', () => {
  let t: TestApp;
  let url: string;
  let browser: Browser;
  let pdf: Buffer;

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${CONSOLE_DIST} has no index.html: run \`npm run build\`, which builds the console.`);
    }
    // Session tokens last a minute, the shortest allowed: the tab renews its token during every
    // longer test, and a test below waits out the first token's lifetime.
    t = await createTestApp({}, { ...process.env, CONSOLE_DIR: CONSOLE_DIST, JWT_TTL_SECONDS: String(TOKEN_SECONDS) });
    await t.app.listen(0, '127.0.0.1');
    url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    pdf = await makePdf(PAGES.map((title, i) => `${title}\n\nParagraph ${i + 1} of the console test document.`));
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Credits for the account the browser just created, granted as an operator would (a ledger row). */
  async function fund(email: string): Promise<void> {
    const [user] = await t.app
      .get(DataSource)
      .query<{ id: string }[]>('SELECT id FROM users WHERE email = $1', [email]);
    await t.app.get(LedgerService).post({
      userId: user.id,
      type: 'grant',
      points: FUNDS,
      description: 'console test credits',
      idempotencyKey: `console-test:${user.id}`,
    });
  }

  async function open(options: BrowserContextOptions): Promise<Page> {
    const context = await browser.newContext({ ...options, acceptDownloads: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    (page as Page & { problems: string[] }).problems = problems;
    await page.goto(`${url}/`);
    return page;
  }
  const problemsOf = (page: Page) => (page as Page & { problems: string[] }).problems;

  /** The user's API keys, read with a session token of their own. */
  async function keysOf(email: string): Promise<unknown[]> {
    const session = await t.http.post('/api/v1/auth/login').send({ email, password: PASSWORD }).expect(200);
    const keys = await t.http.get('/api/v1/keys').set('Authorization', `Bearer ${session.body.access_token}`);
    expect(keys.status).toBe(200);
    return keys.body as unknown[];
  }

  /**
   * Sign up (the upload page opens: no key needed), get credits, choose the premium model (a new
   * account is offered basic while its free pages last), upload the PDF and read the quote;
   * returns the quoted points.
   */
  async function signUpAndQuote(
    page: Page,
    shot: string,
    file: { name: string; buffer: Buffer } = { name: 'report.pdf', buffer: pdf },
  ): Promise<{ email: string; quoted: number }> {
    const email = uniqueEmail('console');
    await page.getByTestId('mode-signup').click();
    await page.locator('#email').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.locator('#files').waitFor();
    await fund(email);

    await page.locator('#model').selectOption('premium');
    await page.locator('#files').setInputFiles({ ...file, mimeType: 'application/pdf' });
    await page.locator('.file-list').waitFor();
    // The user's choice stands once made.
    await expect(page.locator('#model').inputValue()).resolves.toBe('premium');
    await page.screenshot({ path: join(SHOTS, `${shot}upload.png`), fullPage: true });
    await page.locator('form.upload button[type=submit]').click();

    const quote = page.getByTestId('quote-points');
    await quote.waitFor();
    const quoted = Number(await quote.getAttribute('data-points'));
    await page.screenshot({ path: join(SHOTS, `${shot}quote.png`), fullPage: true });
    return { email, quoted };
  }

  async function confirmAndFinish(page: Page, shot: string): Promise<void> {
    await page.getByTestId('confirm').click();
    const bar = page.getByRole('progressbar');
    await bar.waitFor();
    await page.locator('[role=progressbar][aria-valuenow="100"]').waitFor({ timeout: 60_000 });
    await page.locator('.badge-done').first().waitFor();
    await page.screenshot({ path: join(SHOTS, `${shot}progress.png`), fullPage: true });
  }

  it('signs up, uploads a PDF, confirms, follows progress to 100%, downloads Markdown and DOCX with no API key; the balance drops by the quote', async () => {
    const page = await open({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const { email, quoted } = await signUpAndQuote(page, '');
    // Premium model, six pages: the price the API quoted, never free.
    expect(quoted).toBeGreaterThan(0);
    await expect(page.locator('.quote').innerText()).resolves.toContain(`${PAGES.length}`);

    await confirmAndFinish(page, '');
    await expect(page.getByRole('progressbar').getAttribute('aria-valuetext')).resolves.toContain(
      `${PAGES.length} of ${PAGES.length} pages`,
    );

    await page.getByTestId('download-markdown').waitFor();
    const [markdownFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-markdown').click(),
    ]);
    expect(markdownFile.suggestedFilename()).toBe('report.md');
    const markdown = await readFile(await markdownFile.path(), 'utf8');
    for (const title of PAGES) expect(markdown).toContain(title);
    await expect(page.locator('article.markdown').innerText()).resolves.toContain('Revenue grew in every region');

    await page.getByTestId('convert-docx').click();
    const [docxFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-docx').click()]);
    const docx = await readFile(await docxFile.path());
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    const { value: docxText } = await mammoth.extractRawText({ buffer: docx });
    expect(docxText).toContain('Revenue grew in every region');

    await page.getByTestId('convert-hwpx').click();
    const [hwpxFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-hwpx').click()]);
    expect(hwpxFile.suggestedFilename()).toBe('report.hwpx');
    const hwpx = await readFile(await hwpxFile.path());
    expect(hwpx.subarray(30, 38).toString()).toBe('mimetype');

    await page.locator('nav a[href="#/account"]').click();
    const balance = page.getByTestId('balance');
    await balance.waitFor();
    expect(Number(await balance.getAttribute('data-points'))).toBe(FUNDS - quoted);
    await page.locator('.usage canvas').first().waitFor();
    await expect(page.locator('section[aria-labelledby=transactions-title] table').innerText()).resolves.toMatch(
      /Spent/,
    );
    await page.screenshot({ path: join(SHOTS, 'account.png'), fullPage: true });

    const [user] = await t.app
      .get(DataSource)
      .query<{ points_balance: string }[]>('SELECT points_balance FROM users WHERE email = $1', [email]);
    expect(Number(user.points_balance)).toBe(FUNDS - quoted);
    // Every call went with the session: the user has no key, and the spend names none.
    expect(await keysOf(email)).toEqual([]);
    const spends = await t.app
      .get(DataSource)
      .query<{ api_key_id: string | null }[]>(
        "SELECT t.api_key_id FROM credit_transactions t JOIN users u ON u.id = t.user_id WHERE u.email = $1 AND t.type = 'spend'",
        [email],
      );
    expect(spends.length).toBeGreaterThan(0);
    expect(spends.every((row) => row.api_key_id === null)).toBe(true);
    expect(problemsOf(page)).toEqual([]);
  });

  /** What the new-user test reads in each language. */
  const FIRST_UPLOAD = {
    en: {
      locale: 'en-US',
      hint: `Basic is free for your next ${FREE_PAGES_PER_MONTH} pages this month.`,
      confirm: 'Confirm — free',
      freePages: 'Free pages used',
      title: 'report.pdf (+1 more)',
      convertPptx: 'Convert to PowerPoint (PPTX)',
      types: ['Spent', 'Grant'],
      conversion: /^Excel \(XLSX\) conversion of job [0-9a-f]{8}…$/,
    },
    ko: {
      locale: 'ko-KR',
      hint: `이번 달에는 앞으로 ${FREE_PAGES_PER_MONTH}쪽까지 기본 모델이 무료입니다.`,
      confirm: '확인 (무료)',
      freePages: '무료로 처리되는 쪽',
      title: 'report.pdf 외 1개',
      convertPptx: '파워포인트(PPTX)로 변환',
      types: ['사용', '지급'],
      conversion: /^작업 [0-9a-f]{8}…의 엑셀\(XLSX\) 변환$/,
    },
  };

  it.each(['en', 'ko'] as const)(
    'a new user converts two PDFs with the console defaults: basic while free pages last, no 402, a free confirm; sensible download names; the account reads in the language (%s)',
    async (language) => {
      const expected = FIRST_UPLOAD[language];
      const page = await open({ viewport: { width: 1280, height: 900 }, locale: expected.locale });
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 402) refused.push(response.url());
      });
      const email = uniqueEmail('console-first');
      await page.getByTestId('mode-signup').click();
      await page.locator('#email').fill(email);
      await page.locator('#password').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.locator('#files').waitFor();
      if (language === 'ko') {
        // Korean is marked as such, and its words are not broken in the middle.
        await expect(page.evaluate<string>('document.documentElement.lang')).resolves.toBe('ko');
        await expect(page.evaluate<string>('getComputedStyle(document.body).wordBreak')).resolves.toBe('keep-all');
      }

      // No credits, no model chosen: the console offers basic, which the free pages pay for, and says so.
      await expect(page.locator('#model').inputValue()).resolves.toBe('basic');
      await expect(page.getByTestId('free-basic').innerText()).resolves.toBe(expected.hint);
      const appendix = await makePdf(['Appendix A\n\nThe figures behind the report.']);
      await page.locator('#files').setInputFiles([
        { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf },
        { name: 'appendix.pdf', mimeType: 'application/pdf', buffer: appendix },
      ]);
      await page.locator('.file-list li').nth(1).waitFor();
      await page.screenshot({ path: join(SHOTS, `first-${language}-upload.png`), fullPage: true });
      await page.locator('form.upload button[type=submit]').click();

      const quote = page.getByTestId('quote-points');
      await quote.waitFor();
      expect(Number(await quote.getAttribute('data-points'))).toBe(0);
      const freePages = page.locator('.quote dl.facts > div', {
        has: page.locator('dt', { hasText: expected.freePages }),
      });
      await expect(freePages.locator('dd').innerText()).resolves.toBe(String(PAGES.length + 1));
      await expect(page.getByTestId('confirm').innerText()).resolves.toBe(expected.confirm);
      await page.screenshot({ path: join(SHOTS, `first-${language}-quote.png`), fullPage: true });
      await confirmAndFinish(page, `first-${language}-`);
      await expect(page.locator('.job-title').innerText()).resolves.toBe(expected.title);

      // A job of two files downloads as the first and how many more, not `report.pdf (+1 more).pptx`.
      const [markdownFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('download-markdown').click(),
      ]);
      expect(markdownFile.suggestedFilename()).toBe('report-and-1-more.md');
      await expect(page.getByTestId('convert-pptx').innerText()).resolves.toBe(expected.convertPptx);
      await page.getByTestId('convert-pptx').click();
      const [pptxFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pptx').click()]);
      expect(pptxFile.suggestedFilename()).toBe('report-and-1-more.pptx');
      await page.screenshot({ path: join(SHOTS, `first-${language}-job.png`), fullPage: true });

      // Credits from the operator, then a paid conversion: the account lists both in the reader's words.
      await fund(email);
      await page.getByTestId('convert-xlsx_basic').click();
      await page.getByTestId('confirm-xlsx_basic').click();
      await page.getByTestId('download-xlsx_basic').waitFor();
      expect(refused).toEqual([]);

      await page.locator('nav a[href="#/account"]').click();
      await page.getByTestId('balance').waitFor();
      await page.locator('.usage canvas').first().waitFor();
      // The legend shows the last day (today) until a day is pointed at: never uPlot's "--".
      const legend = await page.locator('.usage .u-legend').innerText();
      expect(legend).not.toContain('--');
      const rows = page.getByTestId('transaction-row');
      await rows.nth(1).waitFor();
      const table = page.locator('section[aria-labelledby=transactions-title] table');
      const types = await rows.locator('td:nth-child(2)').allInnerTexts();
      expect([...new Set(types)].sort()).toEqual([...expected.types].sort());
      // Job ids are short links to the job, never the raw id.
      await expect(table.innerText()).resolves.not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      const spend = page.locator('[data-testid=transaction-row][data-type=spend]').first();
      await expect(spend.locator('td:nth-child(5)').innerText()).resolves.toMatch(expected.conversion);
      await expect(spend.getByTestId('transaction-job').getAttribute('href')).resolves.toMatch(
        /^#\/jobs\/[0-9a-f-]{36}$/,
      );
      await page.screenshot({ path: join(SHOTS, `first-${language}-account.png`), fullPage: true });
      expect(problemsOf(page)).toEqual([]);
    },
    120_000,
  );

  it('logging in again creates no key; the tab renews its session before it expires and keeps working', async () => {
    const page = await open({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const email = uniqueEmail('console-again');
    await page.getByTestId('mode-signup').click();
    await page.locator('#email').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.locator('#files').waitFor();
    const before = (await keysOf(email)).length;
    expect(before).toBe(0);

    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.locator('#email').fill(email);
      await page.locator('#password').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.locator('#files').waitFor();
      await page.locator('nav a[href="#/jobs"]').click();
      await page.locator('#status-filter').waitFor();
    }
    expect((await keysOf(email)).length).toBe(before);

    // The token of the last log-in is renewed ahead of its expiry; the renewed one is what the tab uses after it.
    const first = await page.evaluate<string>("JSON.parse(sessionStorage.getItem('docconv.session')).token");
    const renewal = await page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh'), {
      timeout: TOKEN_SECONDS * 1000,
    });
    expect(renewal.status()).toBe(200);
    const renewed = ((await renewal.json()) as { access_token: string }).access_token;
    await expect(page.evaluate<string>("JSON.parse(sessionStorage.getItem('docconv.session')).token")).resolves.toBe(
      renewed,
    );
    expect(renewed).not.toBe(first);
    await t.http.get('/api/v1/jobs').set('Authorization', `Bearer ${renewed}`).expect(200);
    // Once the first token has expired, the pages still load: they send the renewed one.
    const firstExpiry = (JSON.parse(Buffer.from(first.split('.')[1], 'base64url').toString()) as { exp: number }).exp;
    await page.waitForTimeout(Math.max(0, firstExpiry * 1000 - Date.now() + 1000));
    await t.http.get('/api/v1/jobs').set('Authorization', `Bearer ${first}`).expect(401);
    const listed = page.waitForResponse((r) => r.url().includes('/api/v1/jobs?') || r.url().endsWith('/api/v1/jobs'));
    await page.locator('nav a[href="#/upload"]').click();
    await page.locator('nav a[href="#/jobs"]').click();
    expect((await listed).status()).toBe(200);
    await page.locator('#status-filter').waitFor();
    await expect(page.locator('.problem').count()).resolves.toBe(0);
    expect(problemsOf(page)).toEqual([]);
  }, 150_000);

  it('lists the sessions, ends another one, changes the password (ending the rest) and logs out for real', async () => {
    const page = await open({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const email = uniqueEmail('console-sessions');
    await page.getByTestId('mode-signup').click();
    await page.locator('#email').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.locator('#files').waitFor();
    const login = () =>
      t.http.post('/api/v1/auth/login').set('User-Agent', 'curl/8.5').send({ email, password: PASSWORD });
    const elsewhere = (await login().expect(200)).body as { access_token: string };
    const third = (await login().expect(200)).body as { access_token: string };
    const works = async (token: string) =>
      (await t.http.get('/api/v1/account').set('Authorization', `Bearer ${token}`)).status === 200;

    await page.locator('nav a[href="#/sessions"]').click();
    const rows = page.locator('[data-testid=sessions] tbody tr');
    await rows.nth(2).waitFor();
    await expect(rows.count()).resolves.toBe(3);
    await expect(rows.filter({ hasText: 'This tab' }).count()).resolves.toBe(1);
    await page.screenshot({ path: join(SHOTS, 'sessions.png'), fullPage: true });
    await rows
      .filter({ hasText: 'curl/8.5' })
      .first()
      .getByRole('button', { name: 'End the session curl/8.5' })
      .click();
    await rows.nth(2).waitFor({ state: 'detached' });
    await expect(rows.count()).resolves.toBe(2);
    expect([await works(elsewhere.access_token), await works(third.access_token)].sort()).toEqual([false, true]);

    await page.locator('#current-password').fill(PASSWORD);
    await page.locator('#new-password').fill('an even longer new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('[role=status]').filter({ hasText: 'other sessions have ended' }).waitFor();
    expect([await works(elsewhere.access_token), await works(third.access_token)]).toEqual([false, false]);
    await rows.nth(1).waitFor({ state: 'detached' });
    await expect(rows.count()).resolves.toBe(1);

    // A tab reopened after its access token expired renews it with its refresh token and goes on.
    await page.evaluate(
      "(() => { const s = JSON.parse(sessionStorage.getItem('docconv.session')); s.token = 'expired'; s.expiresAt = Date.now() - 1000; sessionStorage.setItem('docconv.session', JSON.stringify(s)); })()",
    );
    const renewed = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh'));
    await page.reload();
    expect((await renewed).status()).toBe(200);
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(page.locator('.problem').count()).resolves.toBe(0);

    // Log out ends the session on the server: the tab's token stops working.
    const token = await page.evaluate<string>("JSON.parse(sessionStorage.getItem('docconv.session')).token");
    expect(token).not.toBe('expired');
    expect(await works(token)).toBe(true);
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'));
    await page.getByRole('button', { name: 'Log out' }).first().click();
    expect((await loggedOut).status()).toBe(204);
    expect(await works(token)).toBe(false);
    expect(problemsOf(page)).toEqual([]);
  }, 60_000);

  it('shows each page beside its Markdown; pointing at a paragraph boxes it on the page; stacked on a phone', async () => {
    const page = await open({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await signUpAndQuote(page, 'pages-');
    await confirmAndFinish(page, 'pages-');
    const image = page.getByTestId('page-image');
    await image.waitFor();
    // The preview has arrived and is drawn (a string: the test's types have no DOM).
    await page.waitForFunction(
      "(() => { const img = document.querySelector('[data-testid=page-image]'); return img !== null && img.complete && img.naturalWidth > 0; })()",
    );
    const blocks = page.getByTestId('page-blocks');
    await expect(blocks.innerText()).resolves.toContain('Paragraph 1 of the console test document.');
    // Side by side: the page on the left, its Markdown on the right, at the same height.
    const pictured = (await image.boundingBox())!;
    const written = (await blocks.boundingBox())!;
    expect(written.x).toBeGreaterThanOrEqual(pictured.x + pictured.width);
    expect(written.y).toBeLessThan(pictured.y + pictured.height);

    // Pointing at the paragraph draws its box on the page: inside the image, in its upper part (where it was drawn).
    const paragraph = page.locator('.page-block[data-type=paragraph]', { hasText: 'Paragraph 1 of the console' });
    await paragraph.hover();
    const box = page.getByTestId('block-box');
    await box.waitFor();
    const highlighted = (await box.boundingBox())!;
    const shown = (await image.boundingBox())!; // measured again: hovering scrolled the paragraph into view
    expect(highlighted.width).toBeGreaterThan(10);
    expect(highlighted.x).toBeGreaterThanOrEqual(shown.x - 1);
    expect(highlighted.x + highlighted.width).toBeLessThanOrEqual(shown.x + shown.width + 1);
    expect(highlighted.y).toBeGreaterThanOrEqual(shown.y - 1);
    expect(highlighted.y + highlighted.height).toBeLessThan(shown.y + shown.height / 2);
    await page.screenshot({ path: join(SHOTS, 'pages.png'), fullPage: true });

    // Another page from the list: its own image and Markdown.
    await page.locator('.page-list button', { hasText: /^2$/ }).click();
    await expect(blocks.innerText()).resolves.toContain('Paragraph 2 of the console test document.');
    await expect(blocks.innerText()).resolves.not.toContain('Paragraph 1 of the console');

    // The chunks below the pages: by headings, then one a page, each with its tokens and pages.
    const chunkView = page.getByTestId('chunk-view');
    await page.getByTestId('chunk').first().waitFor();
    // The six short pages make one chunk: counted in the singular.
    await expect(page.getByTestId('chunk-count').innerText()).resolves.toBe('1 chunk · tokenizer cl100k_base');
    await page.getByTestId('chunk-strategy').selectOption('page');
    await page.locator('[data-testid=chunk] .chunk-meta', { hasText: `page ${PAGES.length}` }).waitFor();
    await expect(page.getByTestId('chunk').count()).resolves.toBe(PAGES.length);
    await expect(page.getByTestId('chunk').nth(1).innerText()).resolves.toContain(
      'Paragraph 2 of the console test document.',
    );
    await chunkView.screenshot({ path: join(SHOTS, 'chunks.png') });

    // On a phone the Markdown comes under the page.
    await page.setViewportSize({ width: 390, height: 844 });
    const narrowImage = (await image.boundingBox())!;
    const narrowBlocks = (await blocks.boundingBox())!;
    expect(narrowBlocks.y).toBeGreaterThanOrEqual(narrowImage.y + narrowImage.height);
    expect(narrowImage.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'pages-phone.png'), fullPage: true });
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows the pictures of a result in its rendered Markdown', async () => {
    const picture = await makePicturePng();
    const illustrated = await pdfBytes((doc) => {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(14).text('A report with a photograph of the site, as taken in spring.', 72, 72);
      doc.image(picture, 72, 120, { width: 400, height: 280 });
      doc.fontSize(11).text('Figure 1. The site in spring.', 72, 410);
    });
    const page = await open({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await signUpAndQuote(page, 'pictures-', { name: 'illustrated.pdf', buffer: illustrated });
    await confirmAndFinish(page, 'pictures-');
    // The Markdown links images/p1-1.png: shown from the job's own pictures, drawn (not a broken link).
    const shown = page.locator('article.markdown img[alt="Figure 1. The site in spring."]');
    await shown.waitFor();
    await page.waitForFunction(
      "(() => { const img = document.querySelector('article.markdown img'); return img !== null && img.complete && img.naturalWidth > 100; })()",
    );
    await expect(shown.getAttribute('src')).resolves.toMatch(/^data:image\/(png|jpeg);base64,/);
    await shown.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'pictures.png'), fullPage: true });
    expect(problemsOf(page)).toEqual([]);
  });

  it('stops a processing job from its page: the pages converted stay readable, the others are refunded', async () => {
    const page = await open({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const total = 3_000; // long enough to be caught midway: a page of one line reads in about a millisecond
    const long = await makePdf(Array.from({ length: total }, (_, i) => `Page ${i + 1} of the report stopped midway.`));
    const { email, quoted } = await signUpAndQuote(page, 'stop-', { name: 'long.pdf', buffer: long });
    await page.getByTestId('confirm').click();
    // Stopped once some pages are converted, so there is something to keep.
    const bar = page.getByRole('progressbar');
    await bar.waitFor();
    while (Number(await bar.getAttribute('aria-valuenow')) < 1) await page.waitForTimeout(50);
    await page.getByTestId('stop').click();
    await page.locator('.badge-cancelled').first().waitFor({ timeout: 30_000 });
    const note = page.locator('p.hint', { hasText: 'Stopped at your request' });
    await note.waitFor();
    const done = /after ([\d,]+) of/.exec(await note.innerText())![1].replace(/,/g, '');
    await expect(page.locator('article.markdown').innerText()).resolves.toContain(
      'Page 1 of the report stopped midway.',
    );
    await page.screenshot({ path: join(SHOTS, 'stopped.png'), fullPage: true });

    const pagePrice = quoted / total;
    const [user] = await t.app
      .get(DataSource)
      .query<{ points_balance: string }[]>('SELECT points_balance FROM users WHERE email = $1', [email]);
    expect(Number(done)).toBeGreaterThan(0);
    expect(Number(done)).toBeLessThan(total);
    expect(Number(user.points_balance)).toBe(FUNDS - Number(done) * pagePrice);
    expect(problemsOf(page)).toEqual([]);
  });

  it('completes the upload flow on a 390-px phone screen, in Korean when the browser asks for it', async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ko-KR' });
    await expect(page.getByTestId('mode-signup').innerText()).resolves.toBe('가입');
    const { quoted } = await signUpAndQuote(page, 'phone-');
    expect(quoted).toBeGreaterThan(0);
    await confirmAndFinish(page, 'phone-');
    await expect(page.locator('.progress-text').innerText()).resolves.toContain('쪽');
    await page.getByTestId('chunk').first().waitFor();
    await expect(page.locator('#chunks-title').innerText()).resolves.toBe('청크');
    await expect(page.getByTestId('chunk-count').innerText()).resolves.toMatch(/^청크 \d+개 · 토크나이저 cl100k_base$/);
    await page.getByTestId('chunk-view').screenshot({ path: join(SHOTS, 'chunks-ko.png') });
    // Nothing is wider than the screen: no sideways scrolling of the page itself.
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows problems as readable messages and manages keys: wrong password, a corrupt upload, create, rotate, deactivate', async () => {
    const page = await open({ viewport: { width: 1024, height: 800 }, locale: 'en-US' });
    const email = uniqueEmail('console-keys');
    await page.locator('#email').fill(email);
    await page.locator('#password').fill('not the password');
    await page.locator('form button[type=submit]').click();
    // The API's problem+json, in words: its title and its detail.
    await expect(page.locator('.problem strong').innerText()).resolves.toBe('Wrong email or password');
    await expect(page.locator('.problem').innerText()).resolves.toMatch(/email or password is wrong/i);

    await page.getByTestId('mode-signup').click();
    await page.locator('#password').fill(PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.locator('#files').waitFor();
    await page.locator('nav a[href="#/keys"]').click();
    await expect(page.locator('.lead').innerText()).resolves.toMatch(/needs none/);
    await page.locator('#key-name').fill('first');
    await page.locator('form:has(#key-name) button[type=submit]').click();
    const first = await page.locator('#issued-key-value').inputValue();
    expect(first).toMatch(/^dcv_/);
    await t.http.get('/api/v1/jobs').set('X-API-Key', first).expect(200);
    await page.getByRole('button', { name: 'Rotate or deactivate first' }).click();
    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    // The secret is the input's value property (no attribute to select on), and the console's
    // Content-Security-Policy forbids the eval behind waitForFunction: read it until it changes.
    let rotated = first;
    for (let tries = 0; rotated === first && tries < 200; tries++) {
      await page.waitForTimeout(25);
      rotated = await page.locator('#issued-key-value').inputValue();
    }
    expect(rotated).not.toBe(first);
    await page.screenshot({ path: join(SHOTS, 'keys.png'), fullPage: true });
    const states = await page.locator('tbody tr').allInnerTexts();
    expect(states.filter((row) => /Deactivated/.test(row))).toHaveLength(1);
    expect(states.filter((row) => /Active/.test(row))).toHaveLength(1);
    // The old secret is refused at once; the rotated one works for the user's programs.
    await t.http.get('/api/v1/jobs').set('X-API-Key', first).expect(401);
    await t.http.get('/api/v1/jobs').set('X-API-Key', rotated).expect(200);

    await page.locator('nav a[href="#/upload"]').click();
    await page.locator('#files').setInputFiles({
      name: 'broken.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.7\nthis is not a PDF body'),
    });
    await page.locator('form.upload button[type=submit]').click();
    await expect(page.locator('.problem').innerText()).resolves.toContain('broken.pdf');

    await page.locator('nav a[href="#/keys"]').click();
    await page.getByRole('button', { name: 'Rotate or deactivate first' }).click();
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.locator('tbody tr:has-text("first"):has-text("Active")').waitFor({ state: 'detached' });
    await t.http.get('/api/v1/jobs').set('X-API-Key', rotated).expect(401);
    // With every key of the user deactivated, the console's job pages work as before.
    await page.locator('nav a[href="#/jobs"]').click();
    await page.locator('#status-filter').waitFor();
    await expect(page.locator('.problem').count()).resolves.toBe(0);
    expect((await keysOf(email)).map((key) => (key as { is_active: boolean }).is_active)).toEqual([false, false]);
    expect(problemsOf(page).filter((p) => !/status of 40[01]/.test(p))).toEqual([]);
  });

  it('keeps the production build under 300 kB of JavaScript gzipped', () => {
    const assets = join(CONSOLE_DIST, 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce(
      (sum, name) => sum + gzipSync(readFileSync(join(assets, name)), { level: 9 }).length,
      0,
    );
    console.log(`console JavaScript: ${scripts.length} file(s), ${(gzipped / 1024).toFixed(1)} kB gzipped`);
    expect(gzipped).toBeLessThan(300 * 1024);
  });
});
