import { decodeCharacterReferences } from '@docconv/characters';
import type { ZipReader } from '../zip/zip-reader';

/**
 * OpenDocument packages (ODT, ODS, ODP) for intake: what the manifest and the entry names say
 * about encryption and macros, and the counts stored in `meta.xml` and `content.xml`. The XML is
 * matched, not parsed: intake needs a few elements and attributes, and the parts are held to the
 * decompression budget by the zip reader.
 */

/** Largest `content.xml` or `styles.xml` intake reads; a document beyond it is not one we convert. */
export const MAX_ODF_PART_BYTES = 64 * 1024 * 1024;
const MAX_SMALL_PART_BYTES = 4 * 1024 * 1024;

/** `META-INF/manifest.xml`, or an empty string when the package has none. */
export async function readManifest(zip: ZipReader): Promise<string> {
  return (await zip.readText('META-INF/manifest.xml', MAX_SMALL_PART_BYTES)) ?? '';
}

/** Whether any entry of the package is encrypted (a password protects the document). */
export function isEncryptedOdf(manifest: string): boolean {
  return /<manifest:encryption-data\b/.test(manifest);
}

/** Basic modules or scripts (Python, JavaScript, BeanShell) in the package. */
const SCRIPT_ENTRY = /^(?:Basic|Scripts)\//;
/** Basic library and container descriptors, which hold no code themselves. */
const LIBRARY_DESCRIPTOR = /\/script-l[bc]\.xml$/;
/** A Basic module LibreOffice creates and leaves empty: `Sub Main` with nothing in it. */
const EMPTY_MODULE = /^(?:\s|REM\b[^\n]*|'[^\n]*)*(?:Sub\s+Main\s*(?:\(\s*\))?\s*End\s+Sub)?\s*$/i;
/** An event of the document, a control or a shape bound to a script or macro URL. */
const SCRIPT_BINDING = /xlink:href="(?:vnd\.sun\.star\.script:|macro:)/;

/**
 * Whether the package holds macros: a Basic module with code, a script file, or a manifest entry
 * for either. Libraries without code (an empty `Standard` library, an untouched `Sub Main`) are
 * not macros.
 */
export async function hasOdfMacros(zip: ZipReader, manifest: string): Promise<boolean> {
  for (const entry of zip.entries) {
    if (entry.isDirectory || !SCRIPT_ENTRY.test(entry.name) || LIBRARY_DESCRIPTOR.test(entry.name)) continue;
    if (entry.name.startsWith('Scripts/')) return true;
    const module = (await zip.read(entry, MAX_SMALL_PART_BYTES)).toString('utf8');
    if (!EMPTY_MODULE.test(decodeCharacterReferences(moduleSource(module)))) return true;
  }
  return [...manifest.matchAll(/manifest:full-path="Scripts\/[^"]*[^/"]"/g)].length > 0;
}

/** Whether content or styles bind events to scripts: a macro run by a click or by opening the document. */
export function hasScriptBindings(xml: string): boolean {
  return SCRIPT_BINDING.test(xml);
}

/** The source code of a Basic module file (`script:module`), or the whole file if it is not one. */
function moduleSource(xml: string): string {
  const match = /<script:module\b[^>]*>([\s\S]*)<\/script:module>/.exec(xml);
  if (match) return match[1];
  return /<script:module\b[^>]*\/>/.test(xml) ? '' : xml;
}

/** `meta:page-count` of the document statistics in `meta.xml` (text documents), or undefined. */
export function storedPageCount(meta: string | undefined): number | undefined {
  const statistic = meta ? /<meta:document-statistic\b[^>]*>/.exec(meta)?.[0] : undefined;
  const count = statistic ? /\bmeta:page-count="(\d+)"/.exec(statistic)?.[1] : undefined;
  return count === undefined ? undefined : Number(count);
}

/** Sheets of a spreadsheet's `content.xml` that hold at least one cell with a value or text. */
export function countNonEmptySheets(content: string): number {
  let sheets = 0;
  for (const sheet of content.matchAll(/<table:table(?=[\s/>])[^>]*?(?:\/>|>([\s\S]*?)<\/table:table>)/g)) {
    if (/\boffice:value-type="|<text:p\b[^>]*>[^<]|<text:(?:span|a|s)\b/.test(sheet[1] ?? '')) sheets++;
  }
  return sheets;
}

/** Slides (`draw:page`) of a presentation's `content.xml`. */
export function countDrawPages(content: string): number {
  return [...content.matchAll(/<draw:page(?=[\s/>])/g)].length;
}

/** The readable text of a text document's `content.xml`, roughly: paragraphs and cells apart, tags gone. */
export function odfText(content: string): string {
  const body = /<office:body\b[\s\S]*<\/office:body>/.exec(content)?.[0] ?? content;
  return decodeCharacterReferences(
    body
      .replace(/<text:(?:tab|line-break|s)\b[^>]*\/>/g, ' ')
      .replace(/<\/(?:text:p|text:h|table:table-cell)>/g, ' ')
      .replace(/<[^>]*>/g, ''),
  );
}
