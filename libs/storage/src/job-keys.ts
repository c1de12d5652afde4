import type { ConversionFormat } from '@docconv/db';

/**
 * Every storage key of a job, in one place. A job's uploads live under `inputs/<job>/` and are
 * deleted once it ends; what it produced lives under `results/<job>/`:
 *
 * ```
 * inputs/<job>/<seq>-<name>          an uploaded file (seq from 1, the name made safe)
 * results/<job>/result.md            the Markdown (its path is also the job row's result_path)
 * results/<job>/document.json        the document model the Markdown is written from (internal)
 * results/<job>/result.json          the structured result (typed blocks mapped into result.md)
 * results/<job>/pages.json           the page report
 * results/<job>/images/…             the pictures the Markdown links (`images/p3-1.png`, `images/f2-p3-1.png`)
 * results/<job>/previews/f<n>-p<p>.png   a page's preview, rendered on first request
 * results/<job>/ranges/<retry>/<first>.json  a page range's read pages, until the assembly
 * results/<job>/pages/<retry>/<n>.json   the n-th page delivered as the job was read
 * results/<job>/result.<format>…     the converted files
 * ```
 *
 * The API and the worker both build keys here, so the two always agree on where a file is.
 */

/** Everything uploaded for a job (deleted once it is read or cancelled). */
export const inputsPrefix = (jobId: string): string => `inputs/${jobId}`;

/** An uploaded file: `seq` is its number in the job, from 1; `safeName` its name made safe for a key. */
export const inputPath = (jobId: string, seq: number, safeName: string): string =>
  `${inputsPrefix(jobId)}/${seq}-${safeName}`;

/** Everything a job produced. */
const resultsPrefix = (jobId: string): string => `results/${jobId}`;

/** The job's Markdown. */
export const markdownPath = (jobId: string): string => `${resultsPrefix(jobId)}/result.md`;

/**
 * The job's document (`@docconv/model`), beside its Markdown: `writeMarkdown` of it is result.md
 * byte for byte. Internal: conversions render from it; it is not a download of the API.
 */
export const documentPath = (jobId: string): string => `${resultsPrefix(jobId)}/document.json`;

/** Where a job's structured result (typed blocks mapped into result.md) is stored, beside the Markdown. */
export const structuredResultPath = (jobId: string): string => `${resultsPrefix(jobId)}/result.json`;

/** Where a job's page report is stored, next to its Markdown. */
export const pageReportPath = (jobId: string): string => `${resultsPrefix(jobId)}/pages.json`;

/**
 * What the pictures of a job's file `seq` are named beside the result, relative to it: the first
 * file's are `images/p3-1.png`, a later file's carry its number, `images/f2-p3-1.png`.
 */
export const imagePrefix = (seq: number): string => (seq > 1 ? `images/f${seq}-` : 'images/');

/** Where a picture a reader took out (`images/p3-1.png`, named with `imagePrefix`) is stored. */
export const imagePath = (jobId: string, name: string): string => `${resultsPrefix(jobId)}/${name}`;

/**
 * A path the Markdown or structured result names (`images/p3-1.png`) inside the job's results;
 * undefined when it would leave them (a link is the document's, not ours to trust).
 */
export function resultFilePath(jobId: string, relative: string): string | undefined {
  return /^images\/[A-Za-z0-9._-]+$/.test(relative) ? `${resultsPrefix(jobId)}/${relative}` : undefined;
}

/** The PNG preview of page `page` of the job's file `seq`. */
export const previewPath = (jobId: string, seq: number, page: number): string =>
  `${resultsPrefix(jobId)}/previews/f${seq}-p${page}.png`;

/** Every page a job's attempt `retry` delivered as it was read (see PageDelivery). */
export const pageEventsPrefix = (jobId: string, retry: number): string => `${resultsPrefix(jobId)}/pages/${retry}`;

/** The `seq`-th page (from 1) a job's attempt delivered: its stretch of the Markdown, and its blocks. */
export const pageEventPath = (jobId: string, retry: number, seq: number): string =>
  `${pageEventsPrefix(jobId, retry)}/${seq}.json`;

/** Every range part of a job spread over page ranges. */
export const rangesPrefix = (jobId: string): string => `${resultsPrefix(jobId)}/ranges`;

/** Where a range's read pages wait for the assembly: under the job's results, per attempt. */
export const rangePath = (jobId: string, retry: number, first: number): string =>
  `${rangesPrefix(jobId)}/${retry}/${first}.json`;

/** Where each format is stored (DESIGN: `result.<ext>`, two XLSX variants). */
const CONVERSION_FILES: Record<ConversionFormat, string> = {
  xlsx_basic: 'result.basic.xlsx',
  xlsx_advanced: 'result.advanced.xlsx',
  docx: 'result.docx',
  pptx: 'result.pptx',
  hwpx: 'result.hwpx',
};

/** The job converted to `format`. */
export const conversionPath = (jobId: string, format: ConversionFormat): string =>
  `${resultsPrefix(jobId)}/${CONVERSION_FILES[format]}`;
