import { DomainError } from '@docconv/contracts';
import { DecompressionBudget, type DecompressionLimits } from '../decompression';
import { MAX_DOCX_PART_BYTES } from '../docx/docx-package';
import { PRINTED_PAGE_CHARACTERS } from '../text-pages';
import { withZip, type ZipReader } from '../zip/zip-reader';
import { MAX_PART_BYTES } from './ooxml';

/** CJK characters weigh more on a printed page (they are wider). */
const CJK_WEIGHT = 2.5;

/** PPTX: the slides listed in the presentation, exact. */
export function countSlides(path: string, displayName: string, limits: DecompressionLimits): Promise<number> {
  return readOffice(path, displayName, limits, async (zip) => {
    const presentation = await zip.readText('ppt/presentation.xml', MAX_PART_BYTES);
    if (presentation === undefined) throw new Error('no presentation part');
    return Math.max(1, [...presentation.matchAll(/<p:sldId\b/g)].length);
  });
}

/**
 * DOCX: the page count Word saved (docProps/app.xml) when present; otherwise an estimate:
 * the larger of the explicit page breaks + 1 and the text's weighted length in printed pages
 * (PRINTED_PAGE_CHARACTERS; CJK characters count 2.5).
 */
export function countDocxPages(path: string, displayName: string, limits: DecompressionLimits): Promise<number> {
  return readOffice(path, displayName, limits, async (zip) => {
    const app = await zip.readText('docProps/app.xml', 1024 * 1024);
    const saved = app ? Number(/<Pages>(\d+)<\/Pages>/.exec(app)?.[1] ?? 0) : 0;
    if (saved > 0) return saved;
    const document = await zip.readText('word/document.xml', MAX_DOCX_PART_BYTES);
    if (document === undefined) throw new Error('no document part');
    return estimateDocxPages(document);
  });
}

export function estimateDocxPages(documentXml: string): number {
  const breaks = [...documentXml.matchAll(/<w:br\b[^>]*w:type="page"/g)].length;
  const text = [...documentXml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
  let weighted = 0;
  for (const ch of text)
    weighted += /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af]/.test(ch) ? CJK_WEIGHT : 1;
  return Math.max(1, breaks + 1, Math.ceil(weighted / PRINTED_PAGE_CHARACTERS));
}

/** XLSX/XLSM: one page per worksheet that has at least one value. */
export function countSheets(path: string, displayName: string, limits: DecompressionLimits): Promise<number> {
  return readOffice(path, displayName, limits, async (zip) => {
    const sheets = zip.entries.filter((e) => /^xl\/worksheets\/[^/]+\.xml$/.test(e.name));
    let nonEmpty = 0;
    for (const sheet of sheets) {
      const xml = (await zip.readText(sheet.name, MAX_PART_BYTES))!;
      if (/<c\b[^>]*>\s*<(v|is)\b/.test(xml)) nonEmpty++;
    }
    return Math.max(1, nonEmpty);
  });
}

async function readOffice(
  path: string,
  displayName: string,
  limits: DecompressionLimits,
  count: (zip: ZipReader) => Promise<number>,
): Promise<number> {
  try {
    return await withZip(path, count, new DecompressionBudget(displayName, limits));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // Spec rule 2: when the estimate fails, the count is 1 page — but a file we cannot open at all is refused.
    if (error instanceof Error && /no (presentation|document) part/.test(error.message)) return 1;
    throw new DomainError(
      'unsupported_format',
      `${displayName} is a damaged office file. Check that it opens and upload it again.`,
    );
  }
}
