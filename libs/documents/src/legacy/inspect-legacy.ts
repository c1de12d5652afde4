import { DomainError } from '@docconv/contracts';
import CFB from 'cfb';
import { readFile } from 'node:fs/promises';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { printedPages, readableCharacters } from '../text-pages';
import { withZip, type ZipReader } from '../zip/zip-reader';
import { readBiffWorkbook, sheetHasValues, type BiffWorkbook } from './biff';
import type { OfficeViaLibreOffice } from '../formats';
import {
  countDrawPages,
  countNonEmptySheets,
  hasOdfMacros,
  hasScriptBindings,
  isEncryptedOdf,
  MAX_ODF_PART_BYTES,
  odfText,
  readManifest,
  storedPageCount,
} from './odf-package';
import { countListedSlides, hasVbaInfo, isEncryptedPresentation } from './ppt-records';
import { PIDDSI_SLIDECOUNT, PIDSI_PAGECOUNT, propertySetIntegers } from './property-set';
import { rtfRoughText, rtfStoredPages } from './rtf';

/**
 * Intake of the formats LibreOffice reads (OpenDocument, Office 97–2003, RTF), without running
 * LibreOffice: intake runs in the API. Pages are what the file stores where it stores them, and a
 * count from the text (3,000 readable characters a page) where it does not; files with macros
 * and password-protected files are refused before any office program opens them.
 */

type OdfKind = 'odt' | 'ods' | 'odp';
type CompoundKind = 'doc' | 'xls' | 'ppt';

/** What the user saves the file as instead, per kind: the OOXML format LibreOffice converts it to. */
const SAVE_AS: Record<OfficeViaLibreOffice, string> = {
  odt: '.docx',
  doc: '.docx',
  rtf: '.docx',
  ods: '.xlsx',
  xls: '.xlsx',
  odp: '.pptx',
  ppt: '.pptx',
};

/** What the kind is called in a message about a damaged file. */
const KIND_NAMES: Record<OfficeViaLibreOffice, string> = {
  odt: 'OpenDocument text',
  ods: 'OpenDocument spreadsheet',
  odp: 'OpenDocument presentation',
  doc: 'Word 97–2003',
  xls: 'Excel 97–2003',
  ppt: 'PowerPoint 97–2003',
  rtf: 'RTF',
};

/** Word's FIB flag (FibBase, offset 0x0A) for a document encrypted with a password. */
const FIB_ENCRYPTED = 0x0100;
/** Where Word's FIB stores `ccpText`, the characters of the main text, in a Word 97+ file with the usual 14 FibRgW words. */
const FIB_CSW_OFFSET = 32;

/**
 * Pages of the file: ODT the page count LibreOffice or Word saved in `meta.xml`; ODS the sheets
 * that hold a value (as for XLSX); ODP the slides; DOC the page count of the SummaryInformation
 * properties; XLS the worksheets that hold a value; PPT the slide count of the
 * DocumentSummaryInformation properties (or else the slide list); RTF `\nofpages` of its
 * document information. A text document that stores no count is counted from its text (at
 * least one page); a refused file (encrypted, damaged, a zip bomb) throws its DomainError.
 */
export async function countViaMetadata(
  path: string,
  kind: OfficeViaLibreOffice,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<number> {
  switch (kind) {
    case 'odt':
    case 'ods':
    case 'odp':
      return withOdf(path, kind, displayName, limits, (zip) => countOdf(zip, kind));
    case 'doc':
    case 'xls':
    case 'ppt':
      return countCompound(openCompound(path, kind, displayName), kind);
    case 'rtf':
      return countRtf(await readRtf(path, displayName));
  }
}

/**
 * Refuses a file that holds macros (a VBA project in DOC, XLS or PPT; Excel 4.0 macro sheets;
 * Basic modules, scripts or script-bound events in an OpenDocument package) or that is
 * password-protected. RTF holds neither: embedded objects are fine, as links are never updated.
 */
export async function assertNoMacros(
  path: string,
  kind: OfficeViaLibreOffice,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<void> {
  let macros: boolean;
  switch (kind) {
    case 'odt':
    case 'ods':
    case 'odp':
      macros = await withOdf(path, kind, displayName, limits, (zip, manifest) => odfHoldsMacros(zip, manifest));
      break;
    case 'doc':
    case 'xls':
    case 'ppt':
      macros = compoundHoldsMacros(openCompound(path, kind, displayName), kind);
      break;
    case 'rtf':
      macros = false;
      break;
  }
  if (macros) {
    throw new DomainError(
      'unsupported_format',
      `${displayName} contains macros. docconv does not open files with macros; save it without macros (as ${SAVE_AS[kind]}) and upload that.`,
    );
  }
}

function passwordProtected(displayName: string): DomainError {
  return new DomainError(
    'unsupported_format',
    `${displayName} is password-protected. Remove the password and upload it again.`,
  );
}

function damaged(displayName: string, kind: OfficeViaLibreOffice): DomainError {
  return new DomainError(
    'unsupported_format',
    `${displayName} is a damaged ${KIND_NAMES[kind]} file. Check that it opens and upload it again.`,
  );
}

// ---------------------------------------------------------------------------------------------
// OpenDocument

/** Opens an OpenDocument package within the decompression limits; an encrypted package is refused. */
async function withOdf<T>(
  path: string,
  kind: OdfKind,
  displayName: string,
  limits: DecompressionLimits,
  use: (zip: ZipReader, manifest: string) => Promise<T>,
): Promise<T> {
  try {
    return await withZip(
      path,
      async (zip) => {
        const manifest = await readManifest(zip);
        if (isEncryptedOdf(manifest)) throw passwordProtected(displayName);
        return use(zip, manifest);
      },
      new DecompressionBudget(displayName, limits),
    );
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw damaged(displayName, kind);
  }
}

/** Macros in the package (Basic modules with code, scripts), or events in content or styles bound to scripts. */
async function odfHoldsMacros(zip: ZipReader, manifest: string): Promise<boolean> {
  if (await hasOdfMacros(zip, manifest)) return true;
  for (const part of ['content.xml', 'styles.xml']) {
    const xml = await zip.readText(part, MAX_ODF_PART_BYTES);
    if (xml !== undefined && hasScriptBindings(xml)) return true;
  }
  return false;
}

/** ODT: the stored page count, else the text's pages; ODS: sheets with a value; ODP: slides. */
async function countOdf(zip: ZipReader, kind: OdfKind): Promise<number> {
  if (kind === 'odt') {
    const stored = storedPageCount(await zip.readText('meta.xml', MAX_ODF_PART_BYTES));
    if (stored !== undefined && stored > 0) return stored;
  }
  const content = await zip.readText('content.xml', MAX_ODF_PART_BYTES);
  if (content === undefined) throw new Error('no content part');
  switch (kind) {
    case 'odt':
      return printedPages(readableCharacters(odfText(content)));
    case 'ods':
      return Math.max(1, countNonEmptySheets(content));
    case 'odp':
      return Math.max(1, countDrawPages(content));
  }
}

// ---------------------------------------------------------------------------------------------
// Compound files (Office 97–2003)

/** The main stream of each kind; `Book` is the stream of Excel 5/95 workbooks. */
const MAIN_STREAMS: Record<CompoundKind, string[]> = {
  doc: ['WordDocument'],
  xls: ['Workbook', 'Book'],
  ppt: ['PowerPoint Document'],
};

interface CompoundFile {
  container: CFB.CFB$Container;
  main: Buffer;
}

/**
 * Opens a compound file and finds its main stream; refuses it when it is damaged or
 * password-protected (an `EncryptedPackage`, Word's fEncrypted flag, Excel's FILEPASS record,
 * PowerPoint's encrypted CurrentUserAtom).
 */
function openCompound(path: string, kind: CompoundKind, displayName: string): CompoundFile {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(path, { type: 'file' });
  } catch {
    throw damaged(displayName, kind);
  }
  if (stream(container, 'EncryptedPackage')) throw passwordProtected(displayName);
  const main = MAIN_STREAMS[kind].map((name) => stream(container, name)).find((s) => s !== undefined);
  if (!main) throw damaged(displayName, kind);
  const encrypted =
    kind === 'doc'
      ? main.length >= 12 && (main.readUInt16LE(0x0a) & FIB_ENCRYPTED) !== 0
      : kind === 'xls'
        ? readBiffWorkbook(main).encrypted
        : isEncryptedPresentation(stream(container, 'Current User'));
  if (encrypted) throw passwordProtected(displayName);
  return { container, main };
}

/** The directory entry type of a stream (`CFB$EntryType.stream`). */
const STREAM_ENTRY = 2;

/** A stream at the root of the compound file, or undefined. */
function stream(container: CFB.CFB$Container, name: string): Buffer | undefined {
  const entry = CFB.find(container, `/${name}`);
  return entry && entry.type === STREAM_ENTRY ? Buffer.from(entry.content as Uint8Array) : undefined;
}

/**
 * Whether the file holds macros: a VBA project storage anywhere (`Macros/VBA` in Word,
 * `_VBA_PROJECT_CUR/VBA` in Excel, in embedded objects too), PowerPoint's VBAInfo record (its
 * project is compressed inside the main stream), or Excel 4.0 macro sheets and Excel 5 modules.
 */
function compoundHoldsMacros(file: CompoundFile, kind: CompoundKind): boolean {
  const vbaStorage = file.container.FullPaths.some((p) =>
    /(?:^|\/)(?:Macros|_VBA_PROJECT_CUR)\/|\/VBA\/(?:dir|_VBA_PROJECT)$/i.test(p.replace(/^Root Entry\//, '')),
  );
  if (vbaStorage) return true;
  if (kind === 'ppt') return hasVbaInfo(file.main);
  if (kind === 'xls') return readBiffWorkbook(file.main).sheets.some((s) => s.type === 'macro' || s.type === 'module');
  return false;
}

/** DOC: SummaryInformation's page count, else the text's pages; XLS: worksheets with a value; PPT: slides. */
function countCompound(file: CompoundFile, kind: CompoundKind): number {
  switch (kind) {
    case 'doc':
      return storedProperty(file, 'SummaryInformation', PIDSI_PAGECOUNT) ?? printedPages(wordTextLength(file.main));
    case 'xls':
      return countWorksheets(file.main, readBiffWorkbook(file.main));
    case 'ppt':
      return (
        storedProperty(file, 'DocumentSummaryInformation', PIDDSI_SLIDECOUNT) ??
        Math.max(1, countListedSlides(file.main))
      );
  }
}

/** A positive integer property of `\x05<set>`, or undefined when the file stores none. */
function storedProperty(file: CompoundFile, set: string, id: number): number | undefined {
  const bytes = stream(file.container, `\u0005${set}`);
  const value = bytes ? propertySetIntegers(bytes).get(id) : undefined;
  return value !== undefined && value > 0 ? value : undefined;
}

/**
 * The characters of a Word document's main text, as its FIB stores them (`ccpText`, the fourth
 * FibRgLw97 field): a rough text length, for documents that store no page count.
 */
function wordTextLength(word: Buffer): number {
  if (word.length < FIB_CSW_OFFSET + 2) return 0;
  const csw = word.readUInt16LE(FIB_CSW_OFFSET);
  const lw = FIB_CSW_OFFSET + 2 + csw * 2 + 2;
  return lw + 16 <= word.length ? Math.max(0, word.readInt32LE(lw + 12)) : 0;
}

/** Worksheets that hold a value (as for XLSX), at least one. */
function countWorksheets(stream: Buffer, workbook: BiffWorkbook): number {
  const worksheets = workbook.sheets.filter((s) => s.type === 'worksheet');
  return Math.max(1, worksheets.filter((s) => sheetHasValues(stream, s.offset)).length);
}

// ---------------------------------------------------------------------------------------------
// RTF

/** The file as Latin-1 text (RTF is 7-bit; other bytes are escaped); refused when it is not RTF. */
async function readRtf(path: string, displayName: string): Promise<string> {
  const rtf = (await readFile(path)).toString('latin1');
  if (!rtf.startsWith('{\\rtf')) throw damaged(displayName, 'rtf');
  return rtf;
}

/** `\nofpages`, else the pages of the rough text. */
function countRtf(rtf: string): number {
  const stored = rtfStoredPages(rtf);
  return stored !== undefined && stored > 0 ? stored : printedPages(readableCharacters(rtfRoughText(rtf)));
}
