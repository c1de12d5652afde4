import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipEntries } from '../libs/render/src/testing/zip-entries';
import { parseMarkdownTables } from '../tools/eval/tables';
import type { TestKey } from '../test/support/accounts';
import { binary, pathOf, upload, waitForJob } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { evalsetPath, fundedKey } from './evalset';

/**
 * Pairs of neighbouring letters and digits (any script) of a text, without Markdown or HTML
 * syntax, spaces or punctuation: a way to compare texts that does not depend on where each
 * writer breaks words (bold markers inside a Korean word, a line break in a cell).
 */
function bigrams(text: string): string[] {
  const letters = (
    text
      .replace(/<[^>]+>/g, ' ')
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]/gu) ?? []
  ).join('');
  return Array.from({ length: Math.max(0, letters.length - 1) }, (_, i) => letters.slice(i, i + 2));
}

/** Share of the reference's letter pairs (as a multiset) that the candidate holds. */
function recall(reference: string, candidate: string): number {
  const have = new Map<string, number>();
  for (const b of bigrams(candidate)) have.set(b, (have.get(b) ?? 0) + 1);
  const wanted = bigrams(reference);
  let found = 0;
  for (const b of wanted) {
    const n = have.get(b) ?? 0;
    if (n > 0) {
      found++;
      have.set(b, n - 1);
    }
  }
  return wanted.length === 0 ? 1 : found / wanted.length;
}

/**
 * The Markdown without its picture links (`![caption](images/p3-1.png)`): a picture's file name is
 * not text, and the office file holds the picture itself.
 */
const withoutPictureLinks = (markdown: string) => markdown.replace(/!\[[^\]\n]*\]\(images\/[^)\s]+\)/g, ' ');

/** Every non-empty table cell of the Markdown (GFM and HTML tables). */
const tableCells = (markdown: string) =>
  parseMarkdownTables(markdown)
    .flatMap((t) => t.rows.flatMap((r) => r.map((c) => c.text.trim())))
    .filter(Boolean);

async function docxText(bytes: Buffer): Promise<string> {
  return (await mammoth.extractRawText({ buffer: bytes })).value;
}

async function pptxText(bytes: Buffer): Promise<string> {
  const entries = await zipEntries(bytes);
  const slides = [...entries.keys()]
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
  return slides
    .map((name) =>
      [
        ...entries
          .get(name)!
          .toString('utf8')
          .matchAll(/<a:t>([^<]*)<\/a:t>/g),
      ]
        .map((m) =>
          m[1]
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, '&'),
        )
        .join(' '),
    )
    .join('\n');
}

async function xlsxText(bytes: Buffer): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const values: string[] = [];
  workbook.eachSheet((sheet) =>
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        const value = cell.value;
        values.push(value instanceof Date ? value.toISOString().slice(0, 10) : String(cell.text ?? value));
      }),
    ),
  );
  return values.join('\n');
}

const LIBREOFFICE = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;

describe('conversions of evalset documents, read back by independent readers', () => {
  let t: TestApp;
  let key: TestKey;
  let folder: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = await fundedKey(t, 'evalconvert');
    folder = await mkdtemp(join(tmpdir(), 'docconv-convert-'));
    if (!LIBREOFFICE)
      process.stdout.write('LibreOffice is not installed: the open-in-LibreOffice checks are skipped.\n');
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
    await t.close();
  });

  const documents = [
    ['tables', 'pdf/2305.03393v1-pg9.pdf'],
    ['Korean HWP', 'hwp/noori.hwp'],
    ['long PDF', 'pdf/redp5110_sampled.pdf'],
  ];

  it.each(documents)(
    '%s (%s): DOCX, PPTX and both XLSX hold the Markdown’s text and table cells',
    async (_, relative) => {
      const name = relative.split('/')[1];
      const res = await upload(t.http, key.key, [{ name, content: readFileSync(evalsetPath(relative)) }], {
        ocr_model: 'basic',
      });
      expect(res.status).toBe(201);
      await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
      const job = await waitForJob(t.http, key.key, res.body.job_id as string, ['done', 'error'], 120_000);
      expect(job.status).toBe('done');
      const markdown = (await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key)).text;
      const cells = tableCells(markdown);

      for (const format of ['docx', 'pptx', 'xlsx_basic', 'xlsx_advanced'] as const) {
        const converted = await t.http
          .post(`/api/v1/jobs/${res.body.job_id}/convert`)
          .set('X-API-Key', key.key)
          .send({ format });
        expect({ format, status: converted.status }).toEqual({ format, status: 200 });
        const file = (
          await t.http
            .get(pathOf(converted.body.download_url as string))
            .buffer(true)
            .parse(binary)
            .expect(200)
        ).body as Buffer;
        const text =
          format === 'docx' ? await docxText(file) : format === 'pptx' ? await pptxText(file) : await xlsxText(file);

        // The same text: nearly all of the Markdown's letters, pair by pair, are in the file (typed
        // XLSX cells may write a number differently, e.g. 1,234 as 1234).
        const share = recall(withoutPictureLinks(markdown), text);
        expect({ format, share: share >= (format === 'xlsx_advanced' ? 0.95 : 0.98) }).toEqual({ format, share: true });
        // The same table cells: every cell's text is in the file.
        const missing = cells.filter((cell) => recall(cell, text) < (format === 'xlsx_advanced' ? 0.5 : 1));
        expect({ format, missing }).toEqual({ format, missing: [] });

        if (LIBREOFFICE) {
          const extension = format === 'docx' ? 'docx' : format === 'pptx' ? 'pptx' : 'xlsx';
          const input = join(folder, `${format}-${name}.${extension}`);
          await writeFile(input, file);
          execFileSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', folder, input], {
            stdio: 'ignore',
            timeout: 120_000,
          });
          expect(await readdir(folder)).toContain(`${format}-${name}.pdf`);
        }
      }
    },
    300_000,
  );
});
