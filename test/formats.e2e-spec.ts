import CFB from 'cfb';
import iconv from 'iconv-lite';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { DataSource } from 'typeorm';
import { compressedRtf, msgFile, TAG } from '../libs/documents/src/email/testing/msg-builder';
import { ARTICLE, CHROME, webPage } from '../libs/documents/src/html/testing/web-page';
import { createKey, signup, type TestKey } from './support/accounts';
import { makeZip } from './support/archives';
import { deflatedZeros } from './support/bombs';
import { makeDocx, makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

const KOREAN =
  '대한민국 헌법 제1조 ① 대한민국은 민주공화국이다.\n② 대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다.\n';

/** An RFC 822 message carrying `attachment` (itself a message, or a text file when absent). */
function message(subject: string, attachment?: string): string {
  const boundary = `b-${subject.replace(/\W/g, '')}`;
  const part = attachment
    ? `Content-Type: message/rfc822\r\nContent-Disposition: attachment; filename="inner.eml"\r\n\r\n${attachment}`
    : `Content-Type: text/plain; name="notes.txt"\r\nContent-Disposition: attachment; filename="notes.txt"\r\n\r\nAttached notes.\r\n`;
  return [
    'From: Alice Example <alice@example.com>',
    'To: Bob Example <bob@example.com>',
    `Subject: ${subject}`,
    'Date: Tue, 3 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Body of ${subject}.`,
    '',
    `--${boundary}`,
    part,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/** A Word 97–2003 compound file holding a VBA project, the way Word stores one (`Macros/VBA`). */
function docWithMacro(): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/WordDocument', Buffer.alloc(1024));
  CFB.utils.cfb_add(container, '/1Table', Buffer.alloc(512));
  CFB.utils.cfb_add(container, '/Macros/VBA/dir', Buffer.from('Attribute VB_Name = "AutoOpen"'));
  CFB.utils.cfb_add(container, '/Macros/VBA/ThisDocument', Buffer.from('Sub AutoOpen()\nShell "calc"\nEnd Sub'));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

describe('formats beside OOXML: intake, skipped members, hostile inputs, text encodings', () => {
  let t: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'formats');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
  });
  afterAll(() => t.close());

  const run = async (files: { name: string; content: Buffer }[], fields: Record<string, string> = {}) => {
    const res = await upload(t.http, key.key, files, { ocr_model: 'basic', ...fields });
    expect({ status: res.status, detail: res.body.detail as unknown }).toEqual({ status: 201, detail: undefined });
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const job = await waitForJob(t.http, key.key, res.body.job_id as string, ['done', 'error'], 120_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    const markdown = (await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key)).text;
    return { preview: res.body, markdown };
  };

  it('a .txt in CP949 and one in UTF-16 come back as the same Korean text', async () => {
    const cp949 = await run([{ name: 'cp949.txt', content: iconv.encode(KOREAN, 'cp949') }]);
    const utf16 = await run([{ name: 'utf16.txt', content: iconv.encode(KOREAN, 'utf-16le', { addBOM: true }) }]);
    expect(cp949.preview).toMatchObject({
      file_type: 'mixed',
      files: [{ format: 'text', file_type: 'mixed', pages: 1 }],
    });
    expect(cp949.markdown).toBe(utf16.markdown);
    expect(cp949.markdown).toContain('대한민국은 민주공화국이다.');
    expect(cp949.markdown).toContain('국민으로부터 나온다.');
  });

  it('an archive with something unsupported converts the rest and lists what it skipped, with the reason', async () => {
    const zip = makeZip([
      { name: 'report.pdf', data: await makePdf(['Quarterly report']) },
      { name: 'letter.docx', data: await makeDocx(['Dear reader']) },
      { name: 'page.html', data: '<!doctype html><h1>Price list</h1><ul><li>Tea</li></ul>' },
      { name: 'tool.exe', data: Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(512)]) },
      { name: 'data.bin', data: Buffer.from([0, 1, 2, 3, 255, 254, 0, 0, 9]) },
    ]);
    const { preview, markdown } = await run([{ name: 'bundle.zip', content: zip }]);
    expect(preview.files.map((f: { path: string; format: string }) => [f.path, f.format])).toEqual([
      ['bundle.zip/report.pdf', 'pdf'],
      ['bundle.zip/letter.docx', 'docx'],
      ['bundle.zip/page.html', 'html'],
    ]);
    expect(preview.total_files).toBe(3);
    expect(preview.skipped_files).toEqual([
      {
        path: 'bundle.zip/tool.exe',
        reason: expect.stringMatching(/^bundle\.zip\/tool\.exe contains EXE data, which is not supported\.$/),
      },
      { path: 'bundle.zip/data.bin', reason: expect.stringMatching(/^bundle\.zip\/data\.bin .*not supported/) },
    ]);
    expect(markdown).toContain('Quarterly report');
    expect(markdown).toContain('# Price list');
    expect(markdown).not.toContain('tool.exe');
    const listing = (await t.http.get(`/api/v1/jobs/${preview.job_id}/files`).set('X-API-Key', key.key).expect(200))
      .body;
    expect(listing).toEqual({ job_id: preview.job_id, files: preview.files, skipped_files: preview.skipped_files });

    const nothing = await upload(t.http, key.key, [
      { name: 'tools.zip', content: makeZip([{ name: 'tool.exe', data: Buffer.from('MZ\x90\x00\x03\x00') }]) },
    ]);
    expect(nothing.status).toBe(400);
    expect(nothing.body.code).toBe('unsupported_format');
    expect(nothing.body.detail).toMatch(/nothing that can be converted: tools\.zip\/tool\.exe/);
  });

  it('an unsupported file is refused with what this deployment accepts: no audio or video where nothing transcribes', async () => {
    const res = await upload(t.http, key.key, [{ name: 'tool.exe', content: Buffer.from('MZ\x90\x00\x03\x00') }]);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^tool\.exe contains EXE data, which is not supported\. Upload PDF, DOCX, /);
    for (const format of ['ODT', 'DOC', 'RTF', 'EPUB', 'e-mail (EML)', 'HTML', 'CSV', 'plain text', 'Markdown']) {
      expect(res.body.detail).toContain(format);
    }
    expect(res.body.detail).not.toMatch(/audio|video/);
    const capabilities = (await t.http.get('/api/v1/capabilities').expect(200)).body;
    expect(capabilities.input_formats.map((f: { format: string }) => f.format)).not.toContain('audio');
    expect(capabilities.input_formats).toContainEqual({
      format: 'odt',
      label: 'ODT',
      extensions: ['.odt'],
      file_type: 'docx',
    });
    expect(capabilities.output_formats).toEqual([
      { format: 'xlsx_basic', label: 'XLSX Basic', extension: 'xlsx', charged: true },
      { format: 'xlsx_advanced', label: 'XLSX Advanced', extension: 'xlsx', charged: true },
      { format: 'docx', label: 'DOCX', extension: 'docx', charged: false },
      { format: 'pptx', label: 'PPTX', extension: 'pptx', charged: false },
      { format: 'hwpx', label: 'HWPX', extension: 'hwpx', charged: false },
    ]);
  });

  it("an e-mail's attachments are files of the job, each under its own heading", async () => {
    const { preview, markdown } = await run([{ name: 'mail.eml', content: Buffer.from(message('Weekly')) }]);
    expect(preview.files.map((f: { path: string; format: string }) => [f.path, f.format])).toEqual([
      ['mail.eml', 'eml'],
      ['mail.eml/notes.txt', 'text'],
    ]);
    expect(preview.file_type).toBe('mixed');
    expect(markdown).toMatch(/^## mail\.eml\n/m);
    expect(markdown).toContain('Body of Weekly.');
    expect(markdown).toMatch(/^## mail\.eml\/notes\.txt\n\nAttached notes\./m);
  });

  it('a web page is read as its article by default, whole with html_content=full; each priced as read', async () => {
    const page = Buffer.from(webPage());
    const main = await run([{ name: 'mallard.html', content: page }]);
    expect(main.preview.html_content).toBe('main');
    expect(main.markdown).toMatch(/^# Mallard\n/);
    for (const phrase of ARTICLE) expect(main.markdown).toContain(phrase);
    expect(CHROME.filter((phrase) => main.markdown.includes(phrase))).toEqual([]);
    const full = await run([{ name: 'mallard.html', content: page }], { html_content: 'full' });
    expect(full.preview.html_content).toBe('full');
    for (const phrase of [...ARTICLE, ...CHROME]) expect(full.markdown).toContain(phrase);
    const job = await t.http.get(`/api/v1/jobs/${full.preview.job_id}`).set('X-API-Key', key.key).expect(200);
    expect(job.body.html_content).toBe('full');
    // What is read is what is priced: a page long enough to be two text pages whole is one as its article.
    const padded = webPage().replace('</footer>', `${'<p>Site news and links. </p>'.repeat(600)}</footer>`);
    const priced = async (fields: Record<string, string>) =>
      (await upload(t.http, key.key, [{ name: 'padded.html', content: padded }], fields)).body.total_pages as number;
    expect([await priced({}), await priced({ html_content: 'full' })]).toEqual([1, 2]);
    const refused = await upload(t.http, key.key, [{ name: 'mallard.html', content: page }], {
      html_content: 'article',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'html_content', message: 'must be one of main, full' }]);
  });

  it('an Outlook item whose only body is compressed RTF converts its body and its attachment', async () => {
    const rtf =
      String.raw`{\rtf1\ansi\ansicpg1252\fromhtml1 \deff0{\fonttbl{\f0\fswiss Arial;}}{\*\htmltag64 <html><body>}` +
      String.raw`{\*\htmltag <p>}The figures are {\*\htmltag <b>}attached{\*\htmltag </b>}.{\*\htmltag </p>}{\*\htmltag </body></html>}}`;
    const item = msgFile({
      streams: { [TAG.messageClass]: 'IPM.Note', [TAG.subject]: 'Figures', [TAG.rtfCompressed]: compressedRtf(rtf) },
      attachments: [
        { streams: { [TAG.attachLongFilename]: 'figures.pdf', [TAG.attachData]: await makePdf(['Revenue 42']) } },
      ],
    });
    const { preview, markdown } = await run([{ name: 'mail.msg', content: item }]);
    expect(preview.files.map((f: { path: string; format: string }) => [f.path, f.format])).toEqual([
      ['mail.msg', 'msg'],
      ['mail.msg/figures.pdf', 'pdf'],
    ]);
    expect(markdown).toContain('The figures are **attached**.');
    expect(markdown).toMatch(/^## mail\.msg\/figures\.pdf\n\nRevenue 42/m);
  });

  it('hostile inputs of each new kind end in a clear 4xx, and nothing is left behind', async () => {
    const leftovers = async () => (await readdir(tmpdir())).filter((n) => /^docconv-(upload|intake)-/.test(n));
    const before = new Set(await leftovers());
    const laughs =
      '<!DOCTYPE html [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>' +
      '<html><body><p>&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;</p></body></html>';
    const epubBomb = makeZip([
      { name: 'mimetype', data: 'application/epub+zip', store: true },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      },
      {
        name: 'content.opf',
        data:
          '<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>' +
          '<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>',
      },
      { name: 'c1.xhtml', deflated: await deflatedZeros(1024 * 1024 * 1024) },
    ]);
    let nested = message('level 3');
    for (let level = 2; level >= 0; level--) nested = message(`level ${level}`, nested);
    const cases: [string, Buffer, number, RegExp][] = [
      ['laughs.html', Buffer.from(laughs), 400, /^laughs\.html declares entities in its DOCTYPE/],
      ['bomb.epub', epubBomb, 413, /^bomb\.epub/],
      ['nested.eml', Buffer.from(nested), 400, /nested more than 2 levels deep/],
      ['empty.csv', Buffer.alloc(10_000_000, ','), 413, /^empty\.csv has more than 16,384 columns/],
      ['macro.doc', docWithMacro(), 400, /^macro\.doc contains macros/],
    ];
    for (const [name, content, status, detail] of cases) {
      const res = await upload(t.http, key.key, [{ name, content }]);
      expect({ name, status: res.status, code: res.body.code as unknown }).toEqual({
        name,
        status,
        code: status === 413 ? 'payload_too_large' : 'unsupported_format',
      });
      expect({ name, detail: res.body.detail as unknown }).toEqual({ name, detail: expect.stringMatching(detail) });
    }
    // Other suites' uploads may be in flight in the shared API meanwhile: what they hold is gone
    // once they end, as these requests' own folders must be.
    const left = async () => (await leftovers()).filter((n) => !before.has(n));
    for (let waited = 0; (await left()).length > 0 && waited < 15_000; waited += 250)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await left()).toEqual([]);
  });
});
