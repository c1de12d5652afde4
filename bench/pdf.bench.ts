import { DEFAULT_OCR_PAGE_DEADLINE_SECONDS } from '@docconv/config';
import { extractToMarkdown, type ExtractInput, type OcrOptions } from '@docconv/reading';
import { OCR_LANGUAGES } from '@docconv/ocr';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { inspectPdf } from '../libs/documents/src/pdf/inspect-pdf';
import { apiWithWorker, previewJob, runJobs, table, textPdf } from './support';

const RUNS = 3;
/** The evalset's scanned PDF has no text layer: it measures OCR, which the `ocr` bench covers. */
const SCANNED = 'ocr_test_scanned.pdf';
/** What a job passes: pages without a text layer would be OCR'd (counted in the table), the rest read as text. */
const OCR: OcrOptions = {
  engine: 'tesseract',
  model: 'basic',
  dpi: 300,
  languages: [...OCR_LANGUAGES],
  settings: {},
  pageDeadlineSeconds: DEFAULT_OCR_PAGE_DEADLINE_SECONDS,
};

/** The evalset's PDFs that have a text layer, or none (and why) when the evalset is not there. */
function evalsetPdfs(): { files: string[]; note?: string } {
  const folder = join(resolve(process.env.EVALSET_DIR ?? '../shared/evalset'), 'pdf');
  if (!existsSync(folder))
    return { files: [], note: `evalset not found at ${folder}: only the generated PDF was measured` };
  const names = readdirSync(folder).filter((name) => name.endsWith('.pdf') && name !== SCANNED);
  return { files: names.sort().map((name) => join(folder, name)) };
}

/** The shortest of `RUNS` runs of `work`, in seconds. */
async function bestSeconds(work: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await work();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return best;
}

/** Pages OCR'd: whole (no text layer) and in part (areas of a text page whose text layer is unreadable). */
interface OcrCount {
  whole: number;
  part: number;
}

/** Our extractor on one PDF, as the worker calls it; returns how many pages it OCR'd. */
async function extract(path: string, pages: number): Promise<OcrCount> {
  const input: ExtractInput = {
    path,
    kind: 'pdf',
    mime: 'application/pdf',
    displayName: basename(path),
    units: pages,
    ocr: OCR,
  };
  const { pages: reports } = await extractToMarkdown(input, () => undefined);
  return {
    whole: reports.filter((report) => report.source === 'ocr').length,
    part: reports.filter((report) => report.source === 'text+ocr').length,
  };
}

/** The `pdftotext` command (poppler) on one PDF, its text written to /dev/null. */
function pdftotext(path: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('pdftotext', ['-q', '-enc', 'UTF-8', path, '-'], { stdio: 'ignore' });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`pdftotext exited ${code} on ${path}`))));
  });
}

/** One table row: pages, both tools' best time, our pages per second and how many times slower we are. */
function row(file: string, pages: number, ocr: OcrCount, ours: number, reference: number): Record<string, string> {
  return {
    pdf: file,
    pages: String(pages),
    "pages OCR'd (whole / in part)": `${ocr.whole} / ${ocr.part}`,
    'ours (s)': ours.toFixed(3),
    'pdftotext (s)': reference.toFixed(3),
    'ours pages/s': (pages / ours).toFixed(0),
    'pdftotext pages/s': (pages / reference).toFixed(0),
    'ours / pdftotext time': (ours / reference).toFixed(1),
  };
}

/**
 * Pages per second of our PDF extractor (text layer → Markdown, with the job's OCR options) on the
 * evalset's text PDFs and a generated 1,000-page text PDF, next to `pdftotext` on the same files.
 */
export async function benchPdf(): Promise<string> {
  const { files, note } = evalsetPdfs();
  const generated = await textPdf(1_000);
  const text: string[] = [];
  const rows: Record<string, string>[] = [];
  const totals = { pages: 0, ocr: { whole: 0, part: 0 }, ours: 0, reference: 0 };
  for (const path of [...files, generated]) {
    const { pages } = await inspectPdf(path, basename(path));
    const ocr = await extract(path, pages);
    const ours = await bestSeconds(() => extract(path, pages));
    const reference = await bestSeconds(() => pdftotext(path));
    const name = path === generated ? `generated ${basename(path)}` : basename(path);
    rows.push(row(name, pages, ocr, ours, reference));
    // Pages read in part by OCR stay: their text layer is read as on any text page.
    if (path !== generated && ocr.whole === 0) text.push(path);
    if (path !== generated) {
      totals.pages += pages;
      totals.ocr.whole += ocr.whole;
      totals.ocr.part += ocr.part;
      totals.ours += ours;
      totals.reference += reference;
    }
  }
  if (files.length > 0)
    rows.splice(files.length, 0, row('all evalset files', totals.pages, totals.ocr, totals.ours, totals.reference));
  const title = `PDF extraction vs pdftotext, best of ${RUNS} runs per file (one extraction at a time)`;
  return [table(note ? `${title}\n${note}` : title, rows), await throughWorker(text, generated)].join('\n');
}

/** `count` runs of `work` at a time over `items`, in order; resolves when all are done. */
async function inParallel<T>(items: T[], count: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: count }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

/**
 * The text PDFs as users send them: one job per file, all confirmed at once, converted by a real
 * worker process (as many slots as cores, its default), from the first confirm to the last job's
 * end; beside `pdftotext` on the same files, as many at a time as the worker has slots. The
 * evalset's files (those with no page read whole by OCR) and the generated 1,000-page PDF are measured apart.
 */
async function throughWorker(text: string[], generated: string): Promise<string> {
  const slots = availableParallelism();
  const stack = await apiWithWorker();
  try {
    const rows: Record<string, string>[] = [];
    const sets = [
      { name: `${text.length} evalset text PDFs, one job each`, paths: text },
      { name: `generated ${basename(generated)}`, paths: [generated] },
    ].filter((set) => set.paths.length > 0);
    for (const set of sets) {
      let pages = 0;
      const pass = async (): Promise<number> => {
        const jobs = [];
        for (const path of set.paths) jobs.push(await previewJob(stack, path, 'application/pdf'));
        pages = jobs.reduce((n, job) => n + job.pages, 0);
        const { seconds, failed } = await runJobs(
          stack,
          jobs.map((job) => job.id),
        );
        if (failed.length > 0) throw new Error(`${failed.length} jobs of ${set.name} did not end done`);
        return seconds;
      };
      // The first pass meets threads whose code has not yet run on such files: a worker's first
      // minutes. The best of the passes after it is the worker as it runs from then on.
      const first = await pass();
      let best = Infinity;
      for (let run = 0; run < RUNS; run++) best = Math.min(best, await pass());
      const reference = await bestSeconds(() => inParallel(set.paths, slots, pdftotext));
      rows.push({
        input: set.name,
        pages: String(pages),
        'first pass (s)': first.toFixed(2),
        'worker (s)': best.toFixed(2),
        'pdftotext (s)': reference.toFixed(2),
        'worker pages/s': (pages / best).toFixed(0),
        'pdftotext pages/s': (pages / reference).toFixed(0),
        'worker / pdftotext time': (best / reference).toFixed(1),
      });
    }
    return table(
      `PDF jobs through a worker process (${slots} slots) vs pdftotext (${slots} at a time): upload first, then from the first confirm to the last job's end; a first pass, then the worker's best of the ${RUNS} passes after it and pdftotext's best of ${RUNS}`,
      rows,
    );
  } finally {
    await stack.close();
  }
}
