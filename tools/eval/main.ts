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
import { DomainError } from '@docconv/contracts';
import { detect } from '@docconv/documents';
import { decodeHtml, type OcrOptions, type PageReport } from '@docconv/reading';
import {
  createWhisperTranscriber,
  EngineTranscriber,
  transcriptMarkdown,
  type Transcriber,
} from '@docconv/transcription';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hygiene } from './hygiene';
import { extractDetected } from './markdown-hashes';
import { formatItems, formatSummary, summarise, summariseHygiene, type ItemReport } from './report';
import { confidenceAgreement, formatOcr, formatPairs, formatTables, hwpPairs } from './report-sections';
import { DEFAULT_OCR, isDirectory, parseOptions, repoRoot, USAGE, UsageError, type Options } from './options';
import { findInputs, loadReferences, type Input } from './references';
import { ocrSummary, score, worst } from './score';
import { webPageScore, type WebPageScore } from './web-pages';

export { parseOptions } from './options';
export { findInputs, type Input } from './references';

/** Error codes meaning "this worker cannot convert that kind of file", not "the conversion failed". */
const UNAVAILABLE = new Set<string>(['transcription_unavailable', 'engine_unavailable']);
const MEDIA_KINDS = new Set<string>(['audio', 'video']);

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
  let webPage: WebPageScore | undefined;
  let failure: unknown;
  try {
    const detected = await detect(input.path, displayName, { media: true });
    kind = detected.kind;
    mime = detected.mime;
    if (transcriber && MEDIA_KINDS.has(detected.kind)) {
      markdown = transcriptMarkdown(displayName, await transcriber.transcribe(input.path));
    } else {
      // A web page against a reference exported whole (docling keeps the whole page) is read whole;
      // read as its article (the default), it is measured against its own markup (webPageScore).
      ({ markdown, pages } = await extractDetected(input.path, detected, ocr, 'full'));
      if (detected.kind === 'html') {
        const article = await extractDetected(input.path, detected, ocr, 'main');
        webPage = webPageScore(decodeHtml(await readFile(input.path)), article.markdown);
      }
    }
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
  if (webPage?.articleKept !== undefined) metrics.independent.articleKept = webPage.articleKept;
  if (webPage?.siteGone !== undefined) metrics.independent.siteGone = webPage.siteGone;
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
