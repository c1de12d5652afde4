import type { ZipReader } from '../zip/zip-reader';
import {
  child,
  childrenNamed,
  nsAttr,
  OfficeReadError,
  readPart,
  readRels,
  readXmlPart,
  relsOfType,
  scanPart,
} from '../office/ooxml';
import { BUILT_IN_FORMATS } from './number-format-codes';

/** What every worksheet of a workbook is read with: its shared strings and its cell styles' number formats. */
export interface Workbook {
  zip: ZipReader;
  strings: string[];
  /** The number format code of each cell style (`s` attribute), by index. */
  formats: string[];
  date1904: boolean;
}

/** A visible worksheet: its name and its part. */
export interface SheetPart {
  name: string;
  part: string;
}

/**
 * The workbook part of an XLSX: its shared strings, number formats and date system, and its
 * visible worksheets in workbook order (chart sheets and hidden sheets are left out).
 */
export async function readWorkbook(zip: ZipReader): Promise<{ book: Workbook; sheets: SheetPart[] }> {
  const rootRels = await readRels(zip, '');
  const part = relsOfType(rootRels, 'officeDocument')[0]?.target ?? 'xl/workbook.xml';
  const workbook = await readXmlPart(zip, part);
  const root = child(workbook, 'workbook');
  if (!root) throw new OfficeReadError(`it has no workbook part (${part})`);
  const rels = await readRels(zip, part);

  const stringsRel = relsOfType(rels, 'sharedStrings')[0];
  const strings = stringsRel ? await readSharedStrings(zip, stringsRel.target) : [];

  const stylesRel = relsOfType(rels, 'styles')[0];
  const styles = child(stylesRel ? await readXmlPart(zip, stylesRel.target) : undefined, 'styleSheet');
  const custom = new Map<number, string>();
  for (const fmt of childrenNamed(child(styles, 'numFmts'), 'numFmt'))
    custom.set(Number(fmt.attrs.numFmtId), fmt.attrs.formatCode ?? 'General');
  const formats = childrenNamed(child(styles, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(xf.attrs.numFmtId ?? 0);
    return custom.get(id) ?? BUILT_IN_FORMATS[id] ?? 'General';
  });

  const book: Workbook = {
    zip,
    strings,
    formats,
    date1904: ['1', 'true'].includes(child(root, 'workbookPr')?.attrs.date1904 ?? ''),
  };
  const sheets: SheetPart[] = [];
  for (const sheet of childrenNamed(child(root, 'sheets'), 'sheet')) {
    if (sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden') continue;
    const rel = rels.get(nsAttr(sheet, 'id') ?? '');
    if (!rel || rel.external || rel.type !== 'worksheet') continue;
    sheets.push({ name: sheet.attrs.name ?? 'Sheet', part: rel.target });
  }
  return { book, sheets };
}

async function readSharedStrings(zip: ZipReader, part: string): Promise<string[]> {
  const xml = await readPart(zip, part);
  if (xml === undefined) return [];
  const strings: string[] = [];
  let current: string | undefined;
  let capture = false;
  let phonetic = 0;
  scanPart(xml, part, {
    open(name, _attrs, empty) {
      if (name === 'si') current = '';
      else if (name === 'rPh' && !empty) phonetic++;
      else if (name === 't' && !empty && phonetic === 0) capture = current !== undefined;
    },
    close(name) {
      if (name === 't') capture = false;
      else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 'si' && current !== undefined) {
        strings.push(decodeEscapes(current));
        current = undefined;
      }
    },
    text(text) {
      if (capture) current += text;
    },
  });
  return strings;
}

/** `_x000D_` and friends: characters SpreadsheetML escapes inside strings. */
export function decodeEscapes(text: string): string {
  return text.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
