import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hancomReference } from '../tools/eval/hancom';
import { hygiene, type HygieneCounts } from '../tools/eval/hygiene';
import { nid, similarity, wordSpacing } from '../tools/eval/metrics';
import { parseChecks, parseTests, runChecks, runTests } from '../tools/eval/olmocr';
import {
  isTablesOnlyReference,
  matchTables,
  parseDoclingTables,
  parseHtmlTables,
  parseMarkdownTables,
  poolTableScores,
  scoreTables,
  tableHasText,
  type PooledTableScores,
  type TableScores,
} from '../tools/eval/tables';
import type { TestKey } from '../test/support/accounts';
import { binary, upload, waitForJob } from '../test/support/jobs';
import { checkStructuredResult } from '../test/support/structured-result-check';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { acceptedDocuments, CONTAINER_FORMATS, evalsetPath, formatOf, fundedKey, ownSection } from './evalset';
import {
  documentTables,
  EXTENSION,
  independentHwpxText,
  libreOfficeRefuses,
  literalMarkers,
  OFFICE_FORMATS,
  readDocxOutput,
  readHwpxOutput,
  readPptxOutput,
  readWorkbookOutput,
  type OutputReading,
} from './office-outputs';

/** How the error of a job none of whose pages could be read begins (see libs/documents page-failure.ts). */
const PAGE_NOT_READ = /^Page \d+ of .+ was not read: /;

/** Inputs read by OCR: they run once per available engine and model. */
const OCR_INPUTS = new Set(['pdf/ocr_test_scanned.pdf']);
const needsOcr = (path: string) => path.startsWith('image/') || OCR_INPUTS.has(path);

/**
 * Floors under each format's scores over its dev-set items, run through the worker: mean text
 * similarity against the item's reference text (for HWP and HWPX, Hancom Office's own export in the
 * order its pages are drawn), mean reading-order NID against the same text, and
 * the share of olmOCR-bench unit tests and string checks passed (pooled over the format's items).
 * 0.95 for the formats with a text layer; where a format is below that, the floor sits just under
 * the figure measured when it was set, so a regression in any format fails the suite. The docling
 * references leave out what the output keeps by decision: a workbook's sheet names (XLSX, XLS,
 * ODS) and a slide's speaker notes (PPTX, PPT, ODP); and the one deck given as PPT and as ODP has
 * its side-by-side shapes in opposite orders in its two references. TEDS (tables with their
 * spans, against docling's JSON) 0.90 wherever there is one, and every string check passes.
 */
const FLOORS: Record<string, { similarity?: number; nid?: number; teds?: number; tests?: number; checks?: number }> = {
  pdf: { similarity: 0.95, nid: 0.94, teds: 0.9, tests: 0.7 },
  docx: { similarity: 0.96, nid: 0.97, teds: 0.9 },
  pptx: { similarity: 0.94, nid: 0.94 },
  xlsx: { similarity: 0.93, nid: 0.93, teds: 0.9 },
  hwp: { similarity: 0.99, nid: 0.97 },
  hwpx: { similarity: 0.99, nid: 0.97 },
  image: { similarity: 0.91, nid: 0.75 },
  html: { similarity: 0.95, nid: 0.95, teds: 0.9 },
  csv: { similarity: 0.95, nid: 0.95, teds: 0.9, checks: 1 },
  epub: { similarity: 0.95, nid: 0.95, checks: 1 },
  odt: { similarity: 0.95, nid: 0.95, teds: 0.9 },
  ods: { similarity: 0.93, nid: 0.95, teds: 0.9 },
  odp: { similarity: 0.86, nid: 0.92, teds: 0.9 },
  doc: { similarity: 0.95, nid: 0.95, teds: 0.9 },
  xls: { similarity: 0.84, nid: 0.95, teds: 0.9 },
  ppt: { similarity: 0.73, nid: 0.84, teds: 0.9 },
  rtf: { checks: 1 },
  eml: { checks: 1 },
  msg: { checks: 1 },
};

/** Defects no output may have, whatever its format: they are never part of a document. */
const NEVER: (keyof HygieneCounts)[] = ['controlCharacters', 'replacementCharacters', 'literalEmphasis'];

type MetricName = 'similarity' | 'nid' | 'spacing' | 'teds';

/**
 * What OCR must reach on the dev set's scans, per item and through the worker: the premium model
 * reads every item at least as well as basic, premium's mean similarity over them is 0.93 or more,
 * and on Korean scans premium keeps the reference's word spacing (F1 0.95 or more) while basic
 * reads 0.90 of the characters. Premium's similarity on a Korean scan is held just under the figure
 * measured (0.935 on noori-1page.jpg; the target is 0.95).
 */
const OCR_ACCEPTANCE = {
  premiumMean: 0.93,
  koreanSpacing: 0.95,
  koreanBasic: 0.9,
  koreanPremium: 0.925,
};

/**
 * What the tables of the dev set's table PDFs (tables-only references, pooled over every reference
 * table) must reach, as issue 45 sets it: cell-content F1, exact grids, detection recall and precision.
 */
const TABLE_ACCEPTANCE = { cellF1: 0.92, exactGrid: 0.6, recall: 0.95, precision: 0.9 };

/** One run's scores, kept for the per-format figures at the end. */
interface Scored {
  run: string;
  format: string;
  path: string;
  engine: string;
  model: string;
  metrics: Partial<Record<MetricName, number>>;
  /** Unit tests and string checks: passed and counted (skipped ones are not counted). */
  tests?: { passed: number; counted: number };
  checks?: { passed: number; counted: number };
  /** The output's tables against a tables-only reference (the ICDAR 2013 structure annotations). */
  tables?: TableScores;
  hygiene: HygieneCounts;
}

/** Scores the Markdown against every reference the input has: text similarity and order, olmOCR tests, string checks. */
function score(path: string, markdown: string): Omit<Scored, 'run' | 'format' | 'path' | 'engine' | 'model'> {
  const base = path.replace(/\.[^.]+$/, '');
  const read = (suffix: string) => (existsSync(base + suffix) ? readFileSync(base + suffix, 'utf8') : undefined);
  const scored: Omit<Scored, 'run' | 'format' | 'path' | 'engine' | 'model'> = {
    metrics: {},
    hygiene: hygiene(markdown).counts,
  };
  // Hancom Office's own export, where there is one, read as the scorer reads it: in the order the pages are drawn.
  // A tables-only reference holds no page text: its tables are scored as a reader meets them, never text similarity.
  const html = read('.ref.html');
  if (html !== undefined && isTablesOnlyReference(html)) {
    scored.tables = scoreTables(parseMarkdownTables(markdown), parseHtmlTables(html));
  }
  const text = (html === undefined ? undefined : hancomReference(html)?.text) ?? read('.ref.txt') ?? read('.ref.md');
  if (text !== undefined) {
    const spacing = wordSpacing(markdown, text);
    scored.metrics = {
      similarity: similarity(markdown, text),
      nid: nid(markdown, text),
      ...(spacing ? { spacing: spacing.f1 } : {}),
    };
  }
  // Tables with their spans (docling's JSON): TEDS of the best pairing, a missing table scoring 0.
  const tables = read('.ref.json');
  const match =
    tables === undefined
      ? undefined
      : matchTables(parseMarkdownTables(markdown), parseDoclingTables(JSON.parse(tables)));
  if (match) scored.metrics.teds = match.mean;
  const tests = read('.tests.jsonl');
  if (tests !== undefined) {
    const { passed, failed } = runTests(parseTests(tests).tests, markdown).passRate;
    if (passed + failed > 0) scored.tests = { passed, counted: passed + failed };
  }
  const checks = read('.checks.json');
  if (checks !== undefined) {
    const { passed, failed } = runChecks(parseChecks(JSON.parse(checks)), markdown).passRate;
    if (passed + failed > 0) scored.checks = { passed, counted: passed + failed };
  }
  return scored;
}

/**
 * How long one evalset job may take through the worker on a busy machine; each test is given a
 * minute more for the upload and download around it (Jest's default of 60 s cut the wait short).
 */
const JOB_WAIT_MS = 120_000;

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('evalset through the running worker: upload → confirm → done → download holds the text', () => {
  let t: TestApp;
  let key: TestKey;
  const scored: Scored[] = [];
  const structuredRuns: { run: string; coverage: number; blocks: number; estimated: number }[] = [];
  /** Runs whose only pages were not read (no text on a page with ink): the job ended in error, refundable. */
  const notRead: string[] = [];
  /** The first finished job of each input whose Markdown has tables, for the office outputs. */
  const withTables = new Map<string, { jobId: string; markdown: string }>();
  beforeAll(async () => {
    t = await createTestApp();
    key = await fundedKey(t, 'evalworker');
  });
  afterAll(() => t.close());

  const runs: [string, string, string][] = acceptedDocuments().flatMap((r): [string, string, string][] =>
    needsOcr(r.path)
      ? [
          [r.path, 'tesseract', 'basic'],
          [r.path, 'tesseract', 'premium'],
          [r.path, 'rapidocr', 'premium'],
        ]
      : [[r.path, 'tesseract', 'basic']],
  );

  it.each(runs)(
    '%s (%s, %s)',
    async (relative, engine, model) => {
      const path = evalsetPath(relative);
      const res = await upload(t.http, key.key, [{ name: relative.split('/').pop()!, content: readFileSync(path) }], {
        ocr_model: model,
        ocr_engine: engine,
      });
      expect(res.status).toBe(201);
      expect(res.body.ocr_engine).toBe(engine);
      await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
      const job = await waitForJob(t.http, key.key, res.body.job_id, ['done', 'error'], JOB_WAIT_MS);
      const name = relative.split('/').pop()!;
      const format = formatOf(relative);
      if (job.status === 'error' && PAGE_NOT_READ.test(job.error_log as string)) {
        // A page with ink that gives no text (handwriting an engine cannot read) is not read and not
        // charged: a file of only such pages ends in error, scored as an empty reading.
        expect(job).toMatchObject({ refundable: true, delivered_pages: 0 });
        notRead.push(`${relative} (${engine}, ${model}): ${job.error_log as string}`);
        scored.push({
          run: `${relative} (${engine}, ${model})`,
          format,
          path: relative,
          engine,
          model,
          ...score(path, ''),
        });
        return;
      }
      expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
      const whole = (await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key)).text;
      // An e-mail's references (docling's tests) are of the message alone; its attachments follow it,
      // each converted under its own heading, and each of them is in the result.
      const markdown = CONTAINER_FORMATS.has(format) ? ownSection(whole, name) : whole;
      for (const attachment of (res.body.files as { path: string }[]).slice(1)) {
        expect(whole).toContain(`## ${attachment.path}\n`);
      }
      // The structured result maps every block into this very Markdown, and PDF and image blocks onto their pages.
      const json = await t.http.get(`/api/v1/jobs/${res.body.job_id}/download?format=json`).set('X-API-Key', key.key);
      expect(json.status).toBe(200);
      const structured = checkStructuredResult(whole, json.body);
      expect(structured.problems).toEqual([]);
      structuredRuns.push({
        run: `${relative} (${engine}, ${model})`,
        coverage: structured.coverage,
        blocks: structured.blocks,
        estimated: (json.body.blocks as { box_estimated?: boolean }[]).filter((b) => b.box_estimated).length,
      });
      const result = score(path, markdown);
      // The table documents (tables-only references) are scored by their tables above; their office outputs are
      // not read here, where each job costs five conversions and a LibreOffice pass.
      if (!withTables.has(relative) && !result.tables && parseMarkdownTables(whole).length > 0) {
        withTables.set(relative, { jobId: res.body.job_id as string, markdown: whole });
      }
      expect(
        Object.keys(result.metrics).length + (result.tests ? 1 : 0) + (result.checks ? 1 : 0) + (result.tables ? 1 : 0),
      ).toBeGreaterThan(0);
      // No output may carry a control character, a replacement character or an emphasis marker a
      // CommonMark parser leaves as text.
      const found = hygiene(markdown);
      expect(Object.fromEntries(NEVER.map((k) => [k, found.examples[k] ?? []]))).toEqual(
        Object.fromEntries(NEVER.map((k) => [k, []])),
      );
      scored.push({
        run: `${relative} (${engine}, ${model})`,
        format,
        path: relative,
        engine,
        model,
        ...result,
      });
    },
    JOB_WAIT_MS + 60_000,
  );

  it('structured results: every block in its span and on its page; blocks cover at least 98 % of each Markdown', () => {
    expect(structuredRuns.length).toBe(runs.length - notRead.length);
    const lowest = [...structuredRuns].sort((a, b) => a.coverage - b.coverage)[0];
    const blocks = structuredRuns.reduce((n, r) => n + r.blocks, 0);
    const estimated = structuredRuns.reduce((n, r) => n + r.estimated, 0);
    if (notRead.length > 0) process.stdout.write(`\nNot read (no page delivered):\n  ${notRead.join('\n  ')}\n`);
    process.stdout.write(
      `\nStructured results of ${structuredRuns.length} runs: ${blocks} blocks, ${estimated} with an estimated box; ` +
        `lowest coverage ${(lowest.coverage * 100).toFixed(2)} % (${lowest.run})\n`,
    );
    expect(structuredRuns.filter((r) => r.coverage < 0.98).map((r) => r.run)).toEqual([]);
  });

  it(
    'office outputs of every job with tables: typed numbers and dates, totals as formulas equal to the printed ' +
      'figures, every table with its cells, no literal ** (read by ExcelJS, mammoth, our HWPX reader, ' +
      '@ssabrojs/hwpxjs and LibreOffice)',
    async () => {
      expect(withTables.size).toBeGreaterThan(0);
      const folder = await mkdtemp(join(tmpdir(), 'docconv-office-'));
      const problems: string[] = [];
      const files = new Map<string, { name: string; bytes: Buffer }[]>();
      const totals = { numbers: 0, dates: 0, formulas: 0, notes: 0 };
      /** Each HWPX written, with its input and the title it was given (the job's file name). */
      const hwpxPaths = new Map<string, { relative: string; title: string }>();
      try {
        let index = 0;
        for (const [relative, { jobId, markdown }] of withTables) {
          index++;
          const job = (await t.http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key)).body;
          const tables = documentTables(markdown);
          for (const format of OFFICE_FORMATS) {
            const converted = await t.http
              .post(`/api/v1/jobs/${jobId}/convert`)
              .set('X-API-Key', key.key)
              .send({ format });
            if (converted.status !== 200) {
              problems.push(`${relative} ${format}: convert answered ${converted.status} ${converted.body.detail}`);
              continue;
            }
            const bytes = (
              await t.http
                .get(`/api/v1/jobs/${jobId}/download?format=${format}`)
                .set('X-API-Key', key.key)
                .buffer(true)
                .parse(binary)
                .expect(200)
            ).body as Buffer;
            const name = `${index}-${format}.${EXTENSION[format]}`;
            let reading: OutputReading;
            if (format === 'xlsx_basic' || format === 'xlsx_advanced') {
              reading = await readWorkbookOutput(bytes, format, tables);
            } else if (format === 'docx') {
              reading = await readDocxOutput(bytes, tables);
            } else if (format === 'pptx') {
              reading = await readPptxOutput(bytes, tables);
            } else {
              const path = join(folder, name);
              await writeFile(path, bytes);
              hwpxPaths.set(path, { relative, title: job.filename as string });
              reading = await readHwpxOutput(path, tables);
            }
            problems.push(...reading.problems.map((problem) => `${relative} ${problem}`));
            totals.numbers += reading.numbers;
            totals.dates += reading.dates;
            totals.formulas += reading.formulas;
            if (format !== 'hwpx')
              files.set(EXTENSION[format], [...(files.get(EXTENSION[format]) ?? []), { name, bytes }]);
          }
          const converted = (await t.http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key)).body;
          if (converted.xlsx_advanced_recovery_notes) totals.notes++;
        }
        // An independent reader opens every HWPX, reads the title it was given and its paragraphs' text, without markers.
        const texts = independentHwpxText([...hwpxPaths.keys()], join(__dirname, '..'));
        for (const [path, { relative, title }] of hwpxPaths) {
          const read = texts[path];
          if (read?.title !== title) problems.push(`${relative}: @ssabrojs/hwpxjs read the title ${read?.title}`);
          else problems.push(...literalMarkers(read.text, `${relative} hwpx (@ssabrojs/hwpxjs)`));
        }
        // LibreOffice opens every DOCX, PPTX and XLSX (it has no HWPX import).
        for (const [extension, batch] of files) {
          const refused = await libreOfficeRefuses(join(folder, extension), batch);
          problems.push(...refused.map((name) => `LibreOffice made no PDF of ${name}`));
        }
        process.stdout.write(
          `\nOffice outputs of ${withTables.size} jobs with tables (${withTables.size * OFFICE_FORMATS.length} files): ` +
            `${totals.numbers} number cells and ${totals.dates} date cells typed, ${totals.formulas} totals as formulas, ` +
            `${totals.notes} XLSX Advanced runs noting totals that do not add up\n`,
        );
        expect(problems).toEqual([]);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
    40 * 60_000,
  );

  it('OCR: premium reads every scan at least as well as basic, and Korean scans keep their words', () => {
    const tesseract = scored.filter(
      (s) => needsOcr(s.path) && s.engine === 'tesseract' && s.metrics.similarity !== undefined,
    );
    const paths = [...new Set(tesseract.map((s) => s.path))];
    expect(paths.length).toBeGreaterThan(0);
    const lines: string[] = [];
    const failures: string[] = [];
    const premiumScores: number[] = [];
    for (const path of paths) {
      const premium = tesseract.find((s) => s.path === path && s.model === 'premium')!.metrics;
      const basic = tesseract.find((s) => s.path === path && s.model === 'basic')!.metrics;
      premiumScores.push(premium.similarity!);
      lines.push(
        `  ${path.padEnd(32)} similarity basic ${basic.similarity!.toFixed(3)} premium ${premium.similarity!.toFixed(3)}` +
          (premium.spacing === undefined
            ? ''
            : `  word spacing F1 basic ${basic.spacing!.toFixed(3)} premium ${premium.spacing.toFixed(3)}`),
      );
      if (premium.similarity! < basic.similarity!) failures.push(`${path}: premium below basic`);
      if (premium.spacing !== undefined) {
        if (premium.spacing < OCR_ACCEPTANCE.koreanSpacing) failures.push(`${path}: premium word spacing`);
        if (basic.similarity! < OCR_ACCEPTANCE.koreanBasic) failures.push(`${path}: basic similarity`);
        if (premium.similarity! < OCR_ACCEPTANCE.koreanPremium) failures.push(`${path}: premium similarity`);
      }
    }
    const premiumMean = mean(premiumScores);
    process.stdout.write(`\nOCR items (tesseract), premium mean ${premiumMean.toFixed(3)}\n${lines.join('\n')}\n`);
    if (premiumMean < OCR_ACCEPTANCE.premiumMean) failures.push(`premium mean ${premiumMean.toFixed(3)}`);
    expect(failures).toEqual([]);
  });

  it('tables against the tables-only references: cell content, adjacency, TEDS, exact grid and detection, per document and pooled', () => {
    const tablesOnly = runs.filter(([relative]) => {
      const reference = evalsetPath(relative).replace(/\.[^.]+$/, '.ref.html');
      return existsSync(reference) && isTablesOnlyReference(readFileSync(reference, 'utf8'));
    });
    expect(tablesOnly.length).toBeGreaterThan(0);
    const withTables = scored.filter((s) => s.tables !== undefined);
    // Every input with a tables-only reference was read and scored, each of its reference tables with text once.
    expect(withTables.map((s) => s.run).sort()).toEqual(tablesOnly.map(([r, e, m]) => `${r} (${e}, ${m})`).sort());
    for (const s of withTables) {
      const reference = parseHtmlTables(readFileSync(evalsetPath(s.path).replace(/\.[^.]+$/, '.ref.html'), 'utf8'));
      expect({ run: s.run, tables: s.tables!.tables.length }).toEqual({
        run: s.run,
        tables: reference.filter(tableHasText).length,
      });
    }
    const line = (name: string, p: PooledTableScores) =>
      `  ${name.padEnd(36)} ${String(p.references).padStart(4)} ${String(p.predicted).padStart(4)}  ` +
      [p.cellF1, p.adjacencyF1, p.teds, p.exactGrid, p.recall, p.precision].map((v) => v.toFixed(3)).join('  ');
    const lines = withTables.map((s) => line(s.path, poolTableScores([s.tables!])!));
    const formats = [...new Set(withTables.map((s) => s.format))].sort();
    const pooled = formats.map((format) => {
      const p = poolTableScores(withTables.filter((s) => s.format === format).map((s) => s.tables!))!;
      for (const value of [p.cellF1, p.adjacencyF1, p.teds, p.exactGrid, p.recall, p.precision]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      return line(`${format} (${p.documents} documents)`, p);
    });
    const pdf = poolTableScores(withTables.filter((s) => s.format === 'pdf').map((s) => s.tables!))!;
    expect({
      cellF1: pdf.cellF1 >= TABLE_ACCEPTANCE.cellF1,
      exactGrid: pdf.exactGrid >= TABLE_ACCEPTANCE.exactGrid,
      recall: pdf.recall >= TABLE_ACCEPTANCE.recall,
      precision: pdf.precision >= TABLE_ACCEPTANCE.precision,
    }).toEqual({ cellF1: true, exactGrid: true, recall: true, precision: true });
    process.stdout.write(
      `\nTables against the tables-only references (reference tables, output tables; cell F1, adjacency F1, TEDS, ` +
        `exact grid, detection recall, precision)\n${lines.join('\n')}\npooled over every reference table\n${pooled.join('\n')}\n`,
    );
  });

  it('each format holds its floors; private-use characters are counted per format', () => {
    expect(scored.length).toBe(runs.length);
    const lines: string[] = [];
    const below: string[] = [];
    const check = (format: string, metric: string, value: number, items: number, note: string) => {
      const floor = FLOORS[format]?.[metric as keyof (typeof FLOORS)[string]];
      lines.push(
        `  ${format.padEnd(6)} ${metric.padEnd(10)} ${items.toString().padStart(3)} items  ${value.toFixed(3)}  ` +
          `floor ${floor === undefined ? ' none' : floor.toFixed(3)}  ${note}`,
      );
      if (floor === undefined) below.push(`${format} ${metric} has no floor`);
      else if (value < floor) below.push(`${format} ${metric} ${value.toFixed(3)} < floor ${floor}`);
    };
    for (const format of [...new Set(scored.map((s) => s.format))].sort()) {
      const items = scored.filter((s) => s.format === format);
      for (const metric of ['similarity', 'nid', 'teds'] as const) {
        const values = items.filter((s) => s.metrics[metric] !== undefined);
        if (values.length === 0) continue;
        const lowest = [...values].sort((a, b) => a.metrics[metric]! - b.metrics[metric]!)[0];
        const value = mean(values.map((s) => s.metrics[metric]!));
        check(format, metric, value, values.length, `mean; lowest ${lowest.metrics[metric]!.toFixed(3)} ${lowest.run}`);
      }
      for (const metric of ['tests', 'checks'] as const) {
        const counted = items.filter((s) => s[metric] !== undefined);
        if (counted.length === 0) continue;
        const passed = counted.reduce((n, s) => n + s[metric]!.passed, 0);
        const total = counted.reduce((n, s) => n + s[metric]!.counted, 0);
        check(format, metric, passed / total, counted.length, `passed ${passed} of ${total}`);
      }
      const privateUse = items.reduce((n, s) => n + s.hygiene.privateUse, 0);
      lines.push(`  ${format.padEnd(6)} private-use characters in ${items.length} outputs: ${privateUse}`);
    }
    process.stdout.write(`\nEvalset through the worker, per format\n${lines.join('\n')}\n`);
    expect(below).toEqual([]);
  });
});
