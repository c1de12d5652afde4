/**
 * `npm run eval -- [--set <dir>] [--model basic|premium] [--engine <name>] [--out report.json]`:
 * the fidelity scorer. Runs our extractors in-process over every input of an evaluation set laid
 * out as `<format>/<name>.<ext>` with references beside it (`<name>.ref.md`, `.ref.txt`,
 * `.ref.json`, `.ref.html`, `.tests.jsonl`, `.checks.json`), scores the Markdown against each
 * reference (text similarity, reading order, heading structure, tables and their exact structure,
 * numbering labels, unit tests, checks), compares the outputs of a document given both as HWP and
 * as HWPX, counts the defects a reader sees in it whatever the reference (hygiene), prints a table per
 * format and writes a JSON report. A low score never fails the run: it exits 0 unless the
 * arguments are wrong (2) or the scorer itself breaks (1).
 */
import { DEFAULT_OCR_PAGE_DEADLINE_SECONDS } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import type { OcrEngine, OcrModel } from '@docconv/db';
import { detect, inspect } from '@docconv/documents';
import { extractToMarkdown, mapPrivateUse, type OcrOptions, type PageReport } from '@docconv/reading';
import {
  createWhisperTranscriber,
  EngineTranscriber,
  transcriptMarkdown,
  type Transcriber,
} from '@docconv/transcription';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { hancomReference, isHancomExport } from './hancom';
import { headingStructure, markdownHeadings } from './headings';
import { hygiene } from './hygiene';
import { cer, nid, similarity, wer, wordSpacing } from './metrics';
import { markdownLabels, numberingScore, textLabels } from './numbering';
import { parseChecks, parseTests, runChecks, runTests, type Checks } from './olmocr';
import {
  confidenceAgreement,
  formatItems,
  formatOcr,
  formatPairs,
  formatSummary,
  formatTables,
  hwpPairs,
  summarise,
  summariseHygiene,
  type ItemMetrics,
  type ItemReport,
  type OcrSummary,
  type ReferenceGroup,
} from './report';
import {
  htmlToText,
  isTablesOnlyReference,
  matchTables,
  parseDoclingTables,
  parseHtmlTables,
  parseMarkdownTables,
  scoreTables,
  structureExactness,
  tableHasText,
  type Table,
} from './tables';

const MODELS: OcrModel[] = ['basic', 'premium'];
const ENGINES: OcrEngine[] = ['tesseract', 'easyocr', 'rapidocr'];
const REFERENCE_SUFFIXES = ['.ref.md', '.ref.txt', '.ref.json', '.ref.html', '.tests.jsonl', '.checks.json'];
/** Error codes meaning "this worker cannot convert that kind of file", not "the conversion failed". */
/** What the worker uses when a job names no engine and EasyOCR is not installed. */
const DEFAULT_OCR: OcrOptions = {
  engine: 'tesseract',
  model: 'premium',
  dpi: 300,
  languages: ['eng', 'kor'],
  settings: { enginesPython: process.env.ENGINES_PYTHON || undefined },
  pageDeadlineSeconds: Number(process.env.OCR_PAGE_DEADLINE_SECONDS) || DEFAULT_OCR_PAGE_DEADLINE_SECONDS,
};

const UNAVAILABLE = new Set<string>(['transcription_unavailable', 'engine_unavailable']);
const MEDIA_KINDS = new Set<string>(['audio', 'video']);

const USAGE = `Usage: npm run eval -- [--set <dir>] [--model basic|premium] [--engine tesseract|easyocr|rapidocr] [--out <file>]

  --set     evaluation set: <format>/<name>.<ext> inputs with <name>.ref.* references beside them
            (default: ../shared/evalset from the repository root)
  --model   OCR model the run stands for: basic or premium (default: premium)
  --engine  OCR engine the run stands for: tesseract, easyocr or rapidocr (default: the worker's)
  Audio and video are transcribed and scored (WER/CER) with the worker's speech model: faster-whisper in
  ENGINES_PYTHON, or the whisper.cpp model WHISPER_MODEL_PATH names.
  --out     where to write the JSON report (default: test-output/eval-report.json)`;

class UsageError extends Error {}

interface Options {
  set: string;
  model: OcrModel;
  engine: OcrEngine | null;
  out: string;
}

/** The repository root: the nearest folder above this file, or else above the working directory, holding docconv's package.json. */
function repoRoot(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest)) {
        try {
          if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'docconv') return dir;
        } catch {
          // Not ours; keep looking.
        }
      }
      if (dirname(dir) === dir) break;
    }
  }
  return process.cwd();
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function parseOptions(argv: string[], root: string): Options | 'help' {
  let values: { set?: string; model?: string; engine?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      options: {
        set: { type: 'string' },
        model: { type: 'string' },
        engine: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';

  const model = (values.model ?? 'premium') as OcrModel;
  if (!MODELS.includes(model)) {
    throw new UsageError(`--model must be one of ${MODELS.join(', ')}; got "${values.model}".`);
  }
  const engine = (values.engine ?? null) as OcrEngine | null;
  if (engine !== null && !ENGINES.includes(engine)) {
    throw new UsageError(`--engine must be one of ${ENGINES.join(', ')}; got "${values.engine}".`);
  }
  if (engine === 'rapidocr' && model === 'basic') {
    throw new UsageError('--engine rapidocr runs with the premium model only; drop --model basic.');
  }

  const set = values.set !== undefined ? resolve(values.set) : resolve(root, '../shared/evalset');
  if (values.set === '') throw new UsageError('--set needs a folder.');
  if (!isDirectory(set)) {
    throw new UsageError(
      `The evaluation set ${set} is not a folder${values.set === undefined ? ' (the default; pass --set <dir>)' : ''}.`,
    );
  }

  if (values.out === '') throw new UsageError('--out needs a file name.');
  const out = values.out !== undefined ? resolve(values.out) : resolve(root, 'test-output/eval-report.json');
  if (values.out !== undefined) {
    if (isDirectory(out)) throw new UsageError(`--out ${out} is a folder; name a file.`);
    if (!isDirectory(dirname(out))) throw new UsageError(`--out: the folder ${dirname(out)} does not exist.`);
  }
  return { set, model, engine, out };
}

// ---------------------------------------------------------------------------------------------
// The set

export interface Input {
  /** Absolute path. */
  path: string;
  /** Relative to the set. */
  relative: string;
  format: string;
  /** `<format>/<name>`: references are this plus a suffix. */
  stem: string;
}

/** Every input of a set: files in its format folders that are not references, in name order. */
export async function findInputs(set: string): Promise<Input[]> {
  const inputs: Input[] = [];
  const folders = (await readdir(set, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  for (const format of folders) {
    const files = (await readdir(join(set, format), { withFileTypes: true }))
      .filter((e) => e.isFile() && !e.name.startsWith('.') && !REFERENCE_SUFFIXES.some((s) => e.name.endsWith(s)))
      .map((e) => e.name)
      .sort();
    for (const file of files) {
      const name = extname(file) ? file.slice(0, -extname(file).length) : file;
      inputs.push({
        path: join(set, format, file),
        relative: `${format}/${file}`,
        format,
        stem: join(set, format, name),
      });
    }
  }
  return inputs;
}

interface References {
  files: string[];
  errors: string[];
  text: Partial<Record<ReferenceGroup, string>>;
  /** The `.ref.md` (docling group), for heading structure: only a Markdown reference has headings to compare. */
  markdown?: string;
  /** The text of a Hancom Office export (`.ref.html`) in visual reading order (independent group). */
  visual?: string;
  tables: Partial<Record<ReferenceGroup, Table[]>>;
  tests?: Record<string, unknown>[];
  checks?: Checks;
}

/** hwpjs opens its snapshots with a title and a metadata line (paper size or version) that are not document content. */
function withoutHwpjsPreamble(markdown: string): string {
  return markdown.replace(/^\uFEFF?\s*# HWP 문서[ \t]*\r?\n(?:[ \t]*\r?\n)*\*\*[^*\n]+\*\*:[^\n]*\r?\n/, '');
}

async function readOptional(path: string): Promise<string | undefined> {
  return existsSync(path) ? readFile(path, 'utf8') : undefined;
}

/**
 * An input's references. Docling's snapshots (`.ref.md`, `.ref.json`, docling's `.ref.html`)
 * and hwpjs's (`.ref.md` of hwp/hwpx) form one group; `.ref.txt`, Hancom Office's `.ref.html`,
 * `.tests.jsonl` and `.checks.json` the other. A `.ref.html` that is Hancom Office's positioned
 * export (whatever the input's format) gives the visual-order text and the tables with text
 * (see hancom.ts; an all-empty grid is a placeholder, left out of TEDS as it is of exactness);
 * the `.ref.txt` beside it, the same HTML with its tags stripped in source order, is still scored
 * as text similarity (.ref.txt). A reference that cannot be read is reported and left out; it
 * does not fail the input.
 */
async function loadReferences(input: Input, set: string): Promise<References> {
  const refs: References = { files: [], errors: [], text: {}, tables: {} };
  const read = async (suffix: string): Promise<string | undefined> => {
    const path = input.stem + suffix;
    const content = await readOptional(path);
    if (content !== undefined) refs.files.push(relative(set, path));
    return content?.replace(/^\uFEFF/, '');
  };
  const attempt = (file: string, work: () => void): void => {
    try {
      work();
    } catch (error) {
      refs.errors.push(`${basename(input.stem)}${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const markdown = await read('.ref.md');
  if (markdown !== undefined) {
    refs.markdown = input.format === 'hwp' || input.format === 'hwpx' ? withoutHwpjsPreamble(markdown) : markdown;
    refs.text.docling = refs.markdown;
  }
  const text = await read('.ref.txt');
  if (text !== undefined) refs.text.independent = text;

  const json = await read('.ref.json');
  if (json !== undefined) {
    attempt('.ref.json', () => {
      const tables = parseDoclingTables(JSON.parse(json));
      if (tables.length > 0) refs.tables.docling = tables;
    });
  }
  const html = await read('.ref.html');
  if (html !== undefined && isHancomExport(html)) {
    // The .ref.txt beside an export is its text: its private-use characters are read the same way.
    if (refs.text.independent !== undefined) refs.text.independent = mapPrivateUse(refs.text.independent);
    attempt('.ref.html', () => {
      const hancom = hancomReference(html);
      if (!hancom) return;
      refs.visual = hancom.text;
      const tables = hancom.tables.filter(tableHasText);
      if (tables.length > 0 && refs.tables.independent === undefined) refs.tables.independent = tables;
    });
  } else if (html !== undefined) {
    const group: ReferenceGroup = /<meta[^>]+generator[^>]+docling/i.test(html) ? 'docling' : 'independent';
    // A tables-only reference (the ICDAR 2013 structure annotations) holds no page text: its tables are scored, never text similarity.
    const tablesOnly = isTablesOnlyReference(html);
    attempt('.ref.html', () => {
      const tables = parseHtmlTables(html);
      if (tables.length > 0 && refs.tables[group] === undefined) refs.tables[group] = tables;
      if (!tablesOnly && refs.text[group] === undefined) refs.text[group] = htmlToText(html);
    });
  }

  const tests = await read('.tests.jsonl');
  if (tests !== undefined) {
    const parsed = parseTests(tests);
    refs.tests = parsed.tests;
    refs.errors.push(...parsed.errors.map((e) => `${basename(input.stem)}.tests.jsonl ${e}`));
  }
  const checks = await read('.checks.json');
  if (checks !== undefined) {
    attempt('.checks.json', () => (refs.checks = parseChecks(JSON.parse(checks))));
  }
  return refs;
}

// ---------------------------------------------------------------------------------------------
// Scoring

interface Scored {
  metrics: Record<ReferenceGroup, ItemMetrics>;
  details: NonNullable<ItemReport['details']>;
}

function score(markdown: string, refs: References, transcript: boolean): Scored {
  const metrics: Record<ReferenceGroup, ItemMetrics> = { docling: {}, independent: {} };
  const details: Scored['details'] = {};
  for (const group of ['docling', 'independent'] as const) {
    const text = refs.text[group];
    if (text !== undefined) {
      metrics[group].similarity = similarity(markdown, text);
      const spacing = wordSpacing(markdown, text);
      if (spacing) metrics[group].spacing = spacing.f1;
      metrics[group].nid = nid(markdown, text);
    }
    if (text !== undefined && transcript && group === 'independent') {
      metrics[group].wer = wer(text, markdown);
      metrics[group].cer = cer(text, markdown);
    }
  }
  if (refs.visual !== undefined) {
    metrics.independent.visualSimilarity = similarity(markdown, refs.visual);
    const spacing = wordSpacing(markdown, refs.visual);
    if (spacing) metrics.independent.visualSpacing = spacing.f1;
    metrics.independent.visualNid = nid(markdown, refs.visual);
  }
  if (refs.markdown !== undefined) {
    details.headings = headingStructure(markdownHeadings(markdown), markdownHeadings(refs.markdown));
    metrics.docling.headings = details.headings.score;
  }
  // Numbering labels: the `.ref.md`'s paragraphs (docling group), and the lines of the Hancom
  // export in visual order or else of the `.ref.txt` (independent group; not of transcripts).
  const labelReferences: Record<ReferenceGroup, string[]> = {
    docling: refs.markdown !== undefined ? markdownLabels(refs.markdown) : [],
    independent:
      refs.visual !== undefined
        ? textLabels(refs.visual)
        : refs.text.independent !== undefined && !transcript
          ? textLabels(refs.text.independent)
          : [],
  };
  if (labelReferences.docling.length > 0 || labelReferences.independent.length > 0) {
    const labels = markdownLabels(markdown);
    for (const group of ['docling', 'independent'] as const) {
      const numbering = numberingScore(labels, labelReferences[group]);
      if (!numbering) continue;
      metrics[group].numbering = numbering.f1;
      (details.numbering ??= {})[group] = numbering;
    }
  }
  const predicted = refs.tables.docling || refs.tables.independent ? parseMarkdownTables(markdown) : [];
  for (const group of ['docling', 'independent'] as const) {
    const reference = refs.tables[group];
    const match = reference ? matchTables(predicted, reference) : undefined;
    if (!match) continue;
    metrics[group].teds = match.mean;
    const structure = structureExactness(predicted, reference!, match);
    if (structure) metrics[group].tableExact = structure.matched / structure.counted;
    const read = scoreTables(predicted, reference!);
    if (read) {
      metrics[group].cellF1 = read.cellF1;
      metrics[group].adjacencyF1 = read.adjacencyF1;
      metrics[group].tableRecall = read.recall;
      metrics[group].tablePrecision = read.precision;
    }
    (details.tables ??= {})[group] = {
      scores: match.scores,
      predicted: predicted.length,
      exact: match.exact,
      structure,
      read,
    };
  }
  if (refs.tests) {
    const { outcomes, passRate } = runTests(refs.tests, markdown);
    details.tests = outcomes;
    if (passRate.rate !== undefined) metrics.independent.tests = passRate.rate;
  }
  if (refs.checks) {
    const { outcomes, passRate } = runChecks(refs.checks, markdown);
    details.checks = outcomes;
    if (passRate.rate !== undefined) metrics.independent.checks = passRate.rate;
  }
  return { metrics, details };
}

/** The pages read whole by OCR, summed up; nothing when there are none. */
function ocrSummary(pages: PageReport[]): { ocr?: OcrSummary } {
  const read = pages.filter((page) => page.source === 'ocr' && page.confidence !== undefined);
  if (read.length === 0) return {};
  return {
    ocr: {
      pages: read.length,
      confidence: read.reduce((sum, page) => sum + page.confidence!, 0) / read.length,
      seconds: read.map((page) => page.seconds ?? 0),
      lowConfidence: read.filter((page) => page.low_confidence).length,
    },
  };
}

/** A failed extraction scores the worst on every metric the input has references for. */
function worst(metrics: Record<ReferenceGroup, ItemMetrics>): Record<ReferenceGroup, ItemMetrics> {
  const out: Record<ReferenceGroup, ItemMetrics> = { docling: {}, independent: {} };
  for (const group of ['docling', 'independent'] as const) {
    for (const [name, value] of Object.entries(metrics[group]) as [keyof ItemMetrics, number][]) {
      if (value !== undefined) out[group][name] = name === 'wer' || name === 'cer' ? 1 : 0;
    }
  }
  return out;
}

function messageOf(error: unknown): string {
  if (error instanceof DomainError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export async function evaluate(
  input: Input,
  set: string,
  ocr: OcrOptions = DEFAULT_OCR,
  transcriber?: Transcriber,
  /** Where to keep the Markdown output, under the input's path relative to the set. */
  outputs?: Map<string, string>,
): Promise<ItemReport> {
  const started = performance.now();
  const refs = await loadReferences(input, set);
  const displayName = basename(input.path);
  let kind: string | undefined;
  let mime: string | undefined;
  let markdown: string | undefined;
  let pages: PageReport[] = [];
  let failure: unknown;
  try {
    const detected = await detect(input.path, displayName, { media: true });
    kind = detected.kind;
    mime = detected.mime;
    if (detected.kind === 'archive') {
      throw new Error('archives are containers, not documents; put the files they hold in the set instead');
    }
    const inspected = await inspect(input.path, detected.kind, detected.mime, displayName);
    if (transcriber && MEDIA_KINDS.has(detected.kind)) {
      markdown = transcriptMarkdown(displayName, await transcriber.transcribe(input.path));
    } else
      ({ markdown, pages } = await extractToMarkdown(
        {
          path: input.path,
          kind: detected.kind,
          mime: detected.mime,
          displayName,
          units: detected.kind === 'pdf' ? inspected.pages : inspected.images,
          ocr,
          // As the worker reads a job's first file: pictures taken out and linked.
          imagePrefix: 'images/',
        },
        () => {},
      ));
  } catch (error) {
    failure = error;
  }
  const extractSeconds = (performance.now() - started) / 1000;
  const base = {
    path: input.relative,
    format: input.format,
    kind,
    mime,
    references: refs.files,
    extractSeconds,
    ...ocrSummary(pages),
  };
  const transcript = MEDIA_KINDS.has(kind ?? input.format);

  if (markdown === undefined) {
    const unavailable =
      (failure instanceof DomainError && UNAVAILABLE.has(failure.code)) ||
      (!transcriber && MEDIA_KINDS.has(kind ?? input.format));
    if (unavailable) {
      return {
        ...base,
        status: 'skipped',
        errors: [`not scored: ${messageOf(failure)}`, ...refs.errors],
        metrics: { docling: {}, independent: {} },
        seconds: (performance.now() - started) / 1000,
      };
    }
    return {
      ...base,
      status: 'failed',
      errors: [messageOf(failure), ...refs.errors],
      metrics: worst(score('', refs, transcript).metrics),
      seconds: (performance.now() - started) / 1000,
    };
  }
  outputs?.set(input.relative, markdown);
  const { metrics, details } = score(markdown, refs, transcript);
  return {
    ...base,
    status: 'scored',
    errors: refs.errors,
    metrics,
    hygiene: hygiene(markdown),
    details,
    seconds: (performance.now() - started) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const root = repoRoot();
  let options: Options | 'help';
  try {
    options = parseOptions(process.argv.slice(2), root);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`eval: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const inputs = await findInputs(options.set);
  if (inputs.length === 0) {
    process.stderr.write(`eval: ${options.set} holds no inputs; expected <format>/<name>.<ext> files.\n\n${USAGE}\n`);
    return 2;
  }

  // Audio and video are scored only with a real speech model, as the worker chooses it.
  const modelPath = process.env.WHISPER_MODEL_PATH;
  const python = process.env.ENGINES_PYTHON;
  const transcriber: Transcriber | undefined = modelPath
    ? await createWhisperTranscriber({ modelPath })
    : python
      ? await EngineTranscriber.create({ python })
      : undefined;

  const started = performance.now();
  const startedAt = new Date();
  const items: ItemReport[] = [];
  const outputs = new Map<string, string>();
  const width = String(inputs.length).length;
  for (const [n, input] of inputs.entries()) {
    const item = await evaluate(
      input,
      options.set,
      { ...DEFAULT_OCR, engine: options.engine ?? DEFAULT_OCR.engine, model: options.model },
      transcriber,
      outputs,
    ).catch((error: unknown): ItemReport => ({
      path: input.relative,
      format: input.format,
      status: 'failed',
      errors: [`the scorer could not process this input: ${messageOf(error)}`],
      references: [],
      metrics: { docling: {}, independent: {} },
      extractSeconds: 0,
      seconds: 0,
    }));
    items.push(item);
    process.stderr.write(
      `[${String(n + 1).padStart(width)}/${inputs.length}] ${item.path}: ${item.status} in ${item.seconds.toFixed(2)}s\n`,
    );
  }
  await transcriber?.close();
  const wallSeconds = (performance.now() - started) / 1000;
  const summary = summarise(items);
  const hygieneSummary = summariseHygiene(items);
  const pairs = hwpPairs(outputs);

  const count = (status: ItemReport['status']): number => items.filter((i) => i.status === status).length;
  const report = {
    set: options.set,
    model: options.model,
    engine: options.engine,
    startedAt: startedAt.toISOString().replace(/Z$/, ''),
    wallSeconds,
    counts: { inputs: items.length, scored: count('scored'), failed: count('failed'), skipped: count('skipped') },
    summary,
    hygiene: hygieneSummary,
    ocrConfidence: confidenceAgreement(items),
    pairs,
    items,
  };
  if (!isDirectory(dirname(options.out))) await mkdir(dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);

  const extraction = items.reduce((s, i) => s + i.extractSeconds, 0);
  process.stdout.write(
    [
      `Fidelity of ${options.set} (model ${options.model}, engine ${options.engine ?? "the worker's default"})`,
      '',
      formatItems(items),
      '',
      formatSummary(items, summary, hygieneSummary),
      '',
      formatPairs(pairs),
      '',
      formatOcr(items),
      '',
      formatTables(items),
      '',
      `Total wall time ${wallSeconds.toFixed(2)}s (extraction ${extraction.toFixed(2)}s, ` +
        `scoring ${(items.reduce((s, i) => s + i.seconds, 0) - extraction).toFixed(2)}s).`,
      `Report written to ${options.out}.`,
      '',
    ].join('\n'),
  );
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`eval failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
