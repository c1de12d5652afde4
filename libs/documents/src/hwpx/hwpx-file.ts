import { DomainError } from '@docconv/contracts';
import { countResets } from '../hwp/hwp-file';
import { withZip } from '../zip/zip-reader';

const SECTION = /^Contents\/section(\d+)\.xml$/;
const MAX_SECTION_BYTES = 256 * 1024 * 1024;

/** The section XML documents of an HWPX (OWPML) file, in order. */
export async function readHwpxSections(path: string, displayName: string): Promise<string[]> {
  try {
    return await withZip(path, async (zip) => {
      const sections = zip.entries
        .filter((e) => SECTION.test(e.name))
        .sort((a, b) => Number(SECTION.exec(a.name)![1]) - Number(SECTION.exec(b.name)![1]));
      if (sections.length === 0) throw new Error('no sections');
      const texts: string[] = [];
      for (const entry of sections) texts.push((await zip.read(entry, MAX_SECTION_BYTES)).toString('utf8'));
      return texts;
    });
  } catch {
    throw new DomainError(
      'unsupported_format',
      `${displayName} is a damaged HWPX file. Check that it opens in Hangul.`,
    );
  }
}

/** Pages from the saved layout, as for HWP: the top-level paragraphs' line positions going back up. */
export function countHwpxPages(sections: string[]): number {
  let pages = 0;
  for (const xml of sections) {
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
    pages += 1 + countResets(tops);
  }
  return Math.max(1, pages);
}
