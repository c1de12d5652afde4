/**
 * `node dist/tools/eval/scanned-tables.js --dpi <dpi> [--set <dir>] [--engine <name>] [--model premium|basic] [--out <file>]
 * [--only <pattern>] [--markdown <dir>]`:
 * the tables of the evaluation set's table PDFs (those whose reference holds tables only) as they
 * come out of scans. Each PDF is printed and scanned: every page rendered in grey at `dpi`
 * (pdftoppm) and put back, as a picture filling a page of the same size, into an image-only PDF;
 * that file is read as the worker reads a scanned PDF (by default with the worker's default engine
 * and model, EasyOCR and premium), and its tables are scored against the same references as the
 * digital file's. Prints the pooled scores and writes them, with each document's, as JSON. The
 * scans are made in a temporary folder and removed; nothing of the set is kept. `--only` reads the
 * documents whose name matches a regular expression; `--markdown` writes each scan's Markdown
 * there, to see what the scores count.
 */
import type { OcrOptions } from '@docconv/reading';
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import { workerExtraction } from './markdown-hashes';
import { DEFAULT_OCR } from './options';
import {
  isTablesOnlyReference,
  parseHtmlTables,
  parseMarkdownTables,
  poolTableScores,
  scoreTables,
  type TableScores,
} from './tables';

const run = promisify(execFile);

/** The scan of `pdf` at `dpi`: an image-only PDF in `dir`, a grey picture of each page filling a page of its size. */
export async function scanOf(pdf: string, dpi: number, dir: string): Promise<string> {
  const name = basename(pdf, '.pdf');
  await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', pdf, join(dir, name)]);
  const pictures = (await readdir(dir)).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png')).sort();
  const { stdout } = await run('pdfinfo', ['-l', '99999', pdf]);
  const sizes = [...stdout.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
  const target = join(dir, `${name}.scan.pdf`);
  const doc = new PDFDocument({ autoFirstPage: false });
  const written = new Promise<void>((done, fail) => {
    const out = createWriteStream(target);
    out.on('finish', done).on('error', fail);
    doc.pipe(out);
  });
  for (const [i, picture] of pictures.entries()) {
    const [width, height] = sizes[i] ?? sizes[0];
    doc.addPage({ size: [width, height], margin: 0 });
    doc.image(join(dir, picture), 0, 0, { width, height });
  }
  doc.end();
  await written;
  await Promise.all(pictures.map((picture) => rm(join(dir, picture))));
  return target;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: {
      dpi: { type: 'string' },
      set: { type: 'string' },
      engine: { type: 'string' },
      model: { type: 'string' },
      out: { type: 'string' },
      only: { type: 'string' },
      markdown: { type: 'string' },
    },
  });
  const dpi = Number(values.dpi);
  if (!Number.isInteger(dpi) || dpi < 72 || dpi > 600) throw new Error('--dpi must be a whole number from 72 to 600');
  const set = resolve(values.set ?? '../shared/evalset');
  // The worker's default engine and model; EasyOCR runs in the engines' Python.
  const engine = (values.engine ?? 'easyocr') as OcrOptions['engine'];
  const model = (values.model ?? 'premium') as OcrOptions['model'];
  const enginesPython = process.env.ENGINES_PYTHON || resolve('.venv-engines/bin/python');
  const ocr: OcrOptions = { ...DEFAULT_OCR, engine, model, dpi, languages: ['eng'], settings: { enginesPython } };
  const out = resolve(values.out ?? `test-output/scanned-tables-${dpi}.json`);
  const folder = join(set, 'pdf');
  const only = new RegExp(values.only ?? '');
  const files: string[] = [];
  for (const name of (await readdir(folder)).sort()) {
    if (!name.endsWith('.ref.html') || !only.test(name)) continue;
    if (isTablesOnlyReference(await readFile(join(folder, name), 'utf8')))
      files.push(name.replace(/\.ref\.html$/, '.pdf'));
  }
  const scans = await mkdtemp(join(tmpdir(), 'docconv-scans-'));
  const documents: Record<string, TableScores> = {};
  try {
    for (const file of files) {
      const scan = await scanOf(join(folder, file), dpi, scans);
      const { markdown } = await workerExtraction(scan, ocr);
      await rm(scan);
      if (values.markdown) await writeFile(join(values.markdown, file.replace(/\.pdf$/, '.md')), markdown);
      const references = parseHtmlTables(await readFile(join(folder, file.replace(/\.pdf$/, '.ref.html')), 'utf8'));
      const scores = scoreTables(parseMarkdownTables(markdown), references);
      if (!scores) continue;
      documents[file] = scores;
      console.error(`${file}: cell F1 ${scores.cellF1.toFixed(3)}, exact ${scores.exactGrid.toFixed(2)}`);
    }
  } finally {
    await rm(scans, { recursive: true, force: true });
  }
  const pooled = poolTableScores(Object.values(documents));
  await writeFile(out, `${JSON.stringify({ dpi, engine, model, pooled, documents }, null, 1)}\n`);
  console.log(JSON.stringify({ dpi, engine, model, pooled }));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
