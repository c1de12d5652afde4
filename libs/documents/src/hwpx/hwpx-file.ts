import { DomainError } from '@docconv/contracts';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { countResets } from '../hwp/hwp-file';
import { withZip } from '../zip/zip-reader';

const SECTION = /^Contents\/section(\d+)\.xml$/;
const MAX_SECTION_BYTES = 256 * 1024 * 1024;

/**
 * Calls `use` with each section XML document of an HWPX (OWPML) file, in order, one at a time;
 * each section is inflated within the file's decompression budget.
 */
export async function forEachHwpxSection(
  path: string,
  displayName: string,
  use: (xml: string) => void,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<void> {
  try {
    await withZip(
      path,
      async (zip) => {
        const sections = zip.entries
          .filter((e) => SECTION.test(e.name))
          .sort((a, b) => Number(SECTION.exec(a.name)![1]) - Number(SECTION.exec(b.name)![1]));
        if (sections.length === 0) throw new Error('no sections');
        for (const entry of sections) use((await zip.read(entry, MAX_SECTION_BYTES)).toString('utf8'));
      },
      new DecompressionBudget(displayName, limits),
    );
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError(
      'unsupported_format',
      `${displayName} is a damaged HWPX file. Check that it opens in Hangul.`,
    );
  }
}

/** The section XML documents of an HWPX (OWPML) file, in order. */
export async function readHwpxSections(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string[]> {
  const sections: string[] = [];
  await forEachHwpxSection(path, displayName, (xml) => sections.push(xml), limits);
  return sections;
}

/** Pages of an HWPX file, counted a section at a time so that no more than one is held at once. */
export async function countHwpxPages(path: string, displayName: string, limits: DecompressionLimits): Promise<number> {
  let pages = 0;
  await forEachHwpxSection(path, displayName, (xml) => (pages += sectionPages(xml)), limits);
  return Math.max(1, pages);
}

/** Pages of one section from the saved layout, as for HWP: the top-level paragraphs' line positions going back up. */
export function sectionPages(xml: string): number {
  let depth = 0;
  const tops: number[] = [];
  for (const match of xml.matchAll(/<(\/?)(?:\w+:)?(p|lineseg)\b([^>]*?)(\/?)>/g)) {
    const [, closing, name, attributes, selfClosing] = match;
    if (name === 'p') {
      if (closing) depth--;
      else if (!selfClosing) depth++;
    } else if (depth === 1) {
      const top = /\bvertpos="(-?\d+)"/.exec(attributes);
      if (top) tops.push(Number(top[1]));
    }
  }
  return 1 + countResets(tops);
}
