import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { JobsService } from '@docconv/jobs';
import { withZip } from '../libs/documents/src/zip/zip-reader';
import { createKey, signup, type TestKey, type TestUser } from '../test/support/accounts';
import { upload } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { evalsetPath, readManifest } from './evalset';

const FILE_TYPE: Record<string, string> = {
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  hwp: 'hwp',
  hwpx: 'hwpx',
  image: 'image',
  audio: 'audio',
  video: 'video',
};

/** Page counts from sources other than our own code. */
async function referencePages(format: string, path: string): Promise<number> {
  switch (format) {
    case 'pdf':
      return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path], { encoding: 'utf8' }))![1]);
    case 'docx':
      return withZip(path, async (zip) =>
        Number(/<Pages>(\d+)<\/Pages>/.exec((await zip.readText('docProps/app.xml'))!)![1]),
      );
    case 'pptx':
      return withZip(
        path,
        async (zip) => zip.entries.filter((e) => /^ppt\/slides\/slide\d+\.xml$/.test(e.name)).length,
      );
    case 'xlsx': {
      const { default: ExcelJS } = await import('exceljs');
      const workbook = await new ExcelJS.Workbook().xlsx.readFile(path);
      return Math.max(1, workbook.worksheets.filter((sheet) => sheet.actualRowCount > 0).length);
    }
    case 'hwp':
    case 'hwpx':
      // Hancom Office's own HTML export draws one `hpa` block per page.
      return [...readFileSync(path.replace(/\.hwpx?$/, '.ref.html'), 'utf8').matchAll(/class="hpa"/g)].length;
    default:
      return 0;
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

  const documents = readManifest().filter((r) => r.role === 'input' && !['audio', 'video'].includes(r.format));
  const media = readManifest().filter((r) => r.role === 'input' && ['audio', 'video'].includes(r.format));

  it.each(documents.map((r) => [r.path, r.format]))('%s', async (relative, format) => {
    const path = evalsetPath(relative);
    const res = await upload(t.http, key.key, [{ name: relative.split('/').pop()!, content: readFileSync(path) }]);
    expect({ status: res.status, detail: res.body.detail as unknown }).toEqual({ status: 201, detail: undefined });
    const pages = await referencePages(format, path);
    const images = format === 'image' ? res.body.cost.image_count : 0;
    expect(res.body).toMatchObject({
      file_type: FILE_TYPE[format],
      total_files: 1,
      total_pages: pages,
      media_duration_seconds: 0,
      cost: { pages, points: (pages + images) * 30 },
    });
    if (format === 'image') expect(images).toBe(1);
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
