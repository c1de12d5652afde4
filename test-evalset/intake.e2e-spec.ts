import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobsService } from '@docconv/jobs';
import { withZip } from '../libs/documents/src/zip/zip-reader';
import { createKey, signup, type TestKey, type TestUser } from '../test/support/accounts';
import { upload } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { readableCharacters, TEXT_PAGE_CHARACTERS } from '../libs/documents/src/text-pages';
import { stripMarkdown } from '../tools/eval/metrics';
import {
  ACCEPTED_FORMATS,
  acceptedDocuments,
  CONTAINER_FORMATS,
  evalsetPath,
  notYetAccepted,
  readManifest,
} from './evalset';

/** Formats priced by their text: TEXT_PAGE_CHARACTERS readable characters a page (README, decisions). */
const PRICED_BY_TEXT = new Set(['html', 'epub', 'eml', 'msg']);

/**
 * Pages of a format priced by its text, from the reference's own text (docling's Markdown, else
 * one page for a short message): the count may differ from ours by what each leaves out of the
 * text (alt text, a page's own header and footer), so 10 % (at least one page) either way is
 * allowed. docling's reference of a web page is the whole page, so web pages are uploaded with
 * html_content=full here.
 */
function referenceTextPages(path: string): { pages: number; tolerance: number } {
  const reference = path.replace(/\.[^.]+$/, '.ref.md');
  if (!existsSync(reference)) return { pages: 1, tolerance: 0 };
  const pages = Math.max(
    1,
    Math.ceil(readableCharacters(stripMarkdown(readFileSync(reference, 'utf8'))) / TEXT_PAGE_CHARACTERS),
  );
  return { pages, tolerance: Math.max(1, Math.round(pages * 0.1)) };
}

/** What LibreOffice makes of an office file, in `target` format, handed to `read` before it is removed. */
async function throughLibreOffice<T>(
  path: string,
  target: string,
  read: (output: string) => Promise<T> | T,
): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'docconv-evalset-pages-'));
  try {
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${folder}/profile`,
        '--headless',
        '--convert-to',
        target,
        '--outdir',
        folder,
        path,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    return await read(
      join(
        folder,
        readdirSync(folder).find((name) => name.endsWith(`.${target}`))!,
      ),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Pages LibreOffice lays an office file out on, as `pdfinfo` counts them in its PDF export. */
function libreOfficePages(path: string): Promise<number> {
  return throughLibreOffice(path, 'pdf', (pdf) =>
    Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]),
  );
}

/** Page counts from sources other than our own code. */
async function referencePages(format: string, path: string): Promise<number> {
  switch (format) {
    case 'pdf':
      return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path], { encoding: 'utf8' }))![1]);
    case 'docx':
      return withZip(path, async (zip) =>
        Number(/<Pages>(\d+)<\/Pages>/.exec((await zip.readText('docProps/app.xml', 1024 * 1024))!)![1]),
      );
    case 'pptx':
      return withZip(
        path,
        async (zip) => zip.entries.filter((e) => /^ppt\/slides\/slide\d+\.xml$/.test(e.name)).length,
      );
    case 'xlsx':
      return sheetsWithValues(path);
    case 'odt':
      // The page count the author's office suite stored; laid out here, fonts substituted, it can differ.
      return withZip(path, async (zip) =>
        Number(/meta:page-count="(\d+)"/.exec((await zip.readText('meta.xml', 1024 * 1024))!)![1]),
      );
    case 'doc':
    case 'rtf':
    case 'odp':
    case 'ppt':
      return libreOfficePages(path);
    case 'ods':
    case 'xls':
      return throughLibreOffice(path, 'xlsx', sheetsWithValues);
    case 'csv':
      return 1; // a table is one sheet
    case 'hwp':
    case 'hwpx':
      // Hancom Office's own HTML export draws one `hpa` block per page.
      return [...readFileSync(path.replace(/\.hwpx?$/, '.ref.html'), 'utf8').matchAll(/class="hpa"/g)].length;
    default:
      return 0;
  }
}

/**
 * Worksheets holding at least one value, as ExcelJS reads them. Some valid workbooks make ExcelJS
 * throw (a one-cell drawing anchor, for one); for those, the worksheet parts that hold a value
 * cell are counted straight from the package.
 */
async function sheetsWithValues(path: string): Promise<number> {
  const { default: ExcelJS } = await import('exceljs');
  try {
    const workbook = await new ExcelJS.Workbook().xlsx.readFile(path);
    return Math.max(1, workbook.worksheets.filter((sheet) => sheet.actualRowCount > 0).length);
  } catch {
    return withZip(path, async (zip) => {
      let sheets = 0;
      for (const entry of zip.entries.filter((e) => /^xl\/worksheets\/[^/]+\.xml$/.test(e.name))) {
        if (/<v>|<is>/.test((await zip.read(entry, 64 * 1024 * 1024)).toString('utf8'))) sheets++;
      }
      return Math.max(1, sheets);
    });
  }
}

function ffprobeSeconds(path: string): number {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path], {
    encoding: 'utf8',
  });
  return Number(out.trim());
}

describe('evalset intake: every public input previews with the right type, counts and cost', () => {
  let t: TestApp;
  let user: TestUser;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t.http, 'evalset');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
  });
  afterAll(() => t.close());

  const documents = acceptedDocuments();
  const media = readManifest().filter((r) => r.role === 'input' && ['audio', 'video'].includes(r.format));

  it.each(documents.map((r) => [r.path, r.format]))('%s', async (relative, format) => {
    const path = evalsetPath(relative);
    const name = relative.split('/').pop()!;
    const fields: Record<string, string> = format === 'html' ? { html_content: 'full' } : {};
    const res = await upload(t.http, key.key, [{ name, content: readFileSync(path) }], fields);
    expect({ status: res.status, detail: res.body.detail as unknown }).toEqual({ status: 201, detail: undefined });
    const files = res.body.files as { path: string; format: string; pages: number }[];
    // The file itself comes first with its exact format; an e-mail's attachments follow it.
    expect(files[0]).toMatchObject({ path: name, format: format === 'csv' ? 'csv' : format });
    const members = [...files.slice(1), ...(res.body.skipped_files as { path: string }[])];
    expect(members.every((f) => CONTAINER_FORMATS.has(format) && f.path.startsWith(`${name}/`))).toBe(true);
    const own = files[0].pages;
    if (PRICED_BY_TEXT.has(format)) {
      const { pages, tolerance } = referenceTextPages(path);
      expect({ file: relative, off: Math.abs(own - pages) <= tolerance }).toEqual({ file: relative, off: true });
    } else {
      expect({ file: relative, pages: own }).toEqual({ file: relative, pages: await referencePages(format, path) });
    }
    const pages = files.reduce((sum, f) => sum + f.pages, 0);
    const images = format === 'image' ? res.body.cost.image_count : 0;
    expect(res.body).toMatchObject({
      file_type: ACCEPTED_FORMATS[format],
      total_files: files.length,
      total_pages: pages,
      media_duration_seconds: 0,
      cost: { pages, points: (pages + images) * 30 },
    });
    if (format === 'image') expect(images).toBe(1);
  });

  it('every format folder of the evalset is accepted', () => {
    expect(notYetAccepted().map((r) => r.path)).toEqual([]);
  });

  it('HWP and HWPX page counts match the reference HTML exports', async () => {
    const hwp = readManifest().filter((r) => r.role === 'input' && (r.format === 'hwp' || r.format === 'hwpx'));
    expect(hwp.length).toBeGreaterThanOrEqual(6);
    for (const row of hwp) {
      const res = await upload(t.http, key.key, [
        { name: row.path.split('/').pop()!, content: readFileSync(evalsetPath(row.path)) },
      ]);
      expect({ file: row.path, pages: res.body.total_pages }).toEqual({
        file: row.path,
        pages: await referencePages(row.format, evalsetPath(row.path)),
      });
    }
  });

  it('audio and video: refused over HTTP without transcription; measured like ffprobe when it is available', async () => {
    for (const row of media) {
      const res = await upload(t.http, key.key, [
        { name: row.path.split('/').pop()!, content: readFileSync(evalsetPath(row.path)) },
      ]);
      expect({ file: row.path, code: res.body.code }).toEqual({ file: row.path, code: 'transcription_unavailable' });

      const { job } = await t.app
        .get(JobsService)
        .createPending(
          { userId: user.userId, apiKeyId: key.id },
          [{ tempPath: evalsetPath(row.path), filename: row.path.split('/').pop()!, bytes: row.bytes }],
          {
            model: 'premium',
            engine: 'tesseract',
            columns: null,
            prompt: '',
            dpi: 300,
            refinement: false,
            transcription: true,
          },
        );
      const seconds = Math.max(1, Math.ceil(ffprobeSeconds(evalsetPath(row.path)) - 0.05));
      expect({ file: row.path, type: job.fileType, seconds: job.mediaDurationSeconds }).toEqual({
        file: row.path,
        type: row.format,
        seconds,
      });
      expect(job.quote.points).toBe(Math.ceil(seconds * (row.format === 'audio' ? 0.1 : 0.2)));
    }
  });
});
