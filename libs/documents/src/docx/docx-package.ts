import { posix } from 'node:path';
import { readChart, type Chart } from '../office/charts';
import { OfficeReadError, readXmlPart, resolvePart } from '../office/ooxml';
import { MAX_IMAGE_BYTES } from '../images';
import type { ZipReader } from '../zip/zip-reader';
import { attr, elements, parseXml, XmlPartError, type XmlElement } from './xml-tree';

/**
 * The largest XML part read from a document (a main part this large holds well over a
 * thousand pages); converting one takes about 45 bytes of memory per byte of XML.
 */
export const MAX_DOCX_PART_BYTES = 32 * 1024 * 1024;
const MAX_PART_BYTES = MAX_DOCX_PART_BYTES;

const OFFICE_DOCUMENT = /\/relationships\/officeDocument$/;

export interface Relationship {
  type: string;
  target: string;
  external: boolean;
}

/** A part with its relationships by id (hyperlink targets, images, related parts). */
export interface DocxPart {
  root: XmlElement;
  relationships: Map<string, Relationship>;
}

/**
 * The parts of a Word document the converter reads. Only the main document must be readable:
 * a damaged styles, numbering or notes part is left out, as Word's own recovery does.
 */
export interface DocxPackage {
  document: DocxPart;
  styles?: XmlElement;
  numbering?: XmlElement;
  footnotes?: DocxPart;
  endnotes?: DocxPart;
  /** The main document's charts (title, kind, data), by part name. */
  charts: Map<string, Chart>;
  /** The main document's pictures as stored in the package, by part name (those under the size cap). */
  media: Map<string, Buffer>;
  /** The headers' and footers' paragraphs as text, in the order of their parts (page furniture). */
  headers: string[][];
  footers: string[][];
}

/**
 * Raised when the package is not a readable Word document. `message` says why and reads as the
 * end of a sentence; `advice`, when set, says what to do instead of re-saving the file in Word.
 */
export class DocxPackageError extends Error {
  constructor(
    message: string,
    readonly advice?: string,
  ) {
    super(message);
  }
}

/** Reads and parses the main document and the parts it relies on. */
export async function readDocxPackage(zip: ZipReader): Promise<DocxPackage> {
  const rootRels = await readRelationships(zip, '');
  const main = [...rootRels.values()].find((r) => OFFICE_DOCUMENT.test(r.type) && !r.external);
  const documentPath = main?.target ?? 'word/document.xml';
  const documentXml = await readPart(zip, documentPath);
  if (documentXml === undefined) throw await missingBody(zip, documentPath);
  const document = parseWithName(documentXml, documentPath);
  if (document.name !== 'w:document') throw new DocxPackageError(`${documentPath} is not a WordprocessingML document`);

  const relationships = await readRelationships(zip, documentPath);
  const related = async (suffix: string, fallback: string): Promise<DocxPart | undefined> => {
    const rel = [...relationships.values()].find((r) => r.type.endsWith(suffix) && !r.external);
    const path = rel?.target ?? posix.join(posix.dirname(documentPath), fallback);
    try {
      const xml = await readPart(zip, path);
      return xml === undefined
        ? undefined
        : { root: parseWithName(xml, path), relationships: await readRelationships(zip, path) };
    } catch (error) {
      if (error instanceof DocxPackageError) return undefined;
      throw error;
    }
  };

  const charts = new Map<string, Chart>();
  for (const rel of relationships.values()) {
    if (!rel.type.endsWith('/chart') || rel.external) continue;
    try {
      const chart = await readXmlPart(zip, rel.target);
      if (chart) charts.set(rel.target, readChart(chart));
    } catch (error) {
      // A damaged chart is left out, like a damaged notes part; a budget refusal still stops the file.
      if (!(error instanceof OfficeReadError)) throw error;
    }
  }

  const media = new Map<string, Buffer>();
  for (const rel of relationships.values()) {
    if (!rel.type.endsWith('/image') || rel.external || media.has(rel.target)) continue;
    const entry = zip.find(rel.target);
    if (!entry || entry.uncompressedSize > MAX_IMAGE_BYTES) continue;
    media.set(rel.target, await zip.read(entry, MAX_IMAGE_BYTES));
  }

  // Headers and footers are page furniture: their text is enough, and a damaged one is left out.
  const furniture = async (suffix: string): Promise<string[][]> => {
    const parts: string[][] = [];
    for (const rel of relationships.values()) {
      if (!rel.type.endsWith(suffix) || rel.external) continue;
      try {
        const xml = await readPart(zip, rel.target);
        if (xml !== undefined) parts.push(paragraphTexts(parseWithName(xml, rel.target)));
      } catch (error) {
        if (!(error instanceof DocxPackageError)) throw error;
      }
    }
    return parts;
  };

  return {
    headers: await furniture('/header'),
    footers: await furniture('/footer'),
    document: { root: document, relationships },
    charts,
    media,
    styles: (await related('/styles', 'styles.xml'))?.root,
    numbering: (await related('/numbering', 'numbering.xml'))?.root,
    footnotes: await related('/footnotes', 'footnotes.xml'),
    endnotes: await related('/endnotes', 'endnotes.xml'),
  };
}

/** Why a package has no main document: another Office format, or a damaged Word package. */
async function missingBody(zip: ZipReader, documentPath: string): Promise<DocxPackageError> {
  let types = '';
  try {
    types = (await readPart(zip, '[Content_Types].xml')) ?? '';
  } catch {
    // an unreadable content-types part says nothing more
  }
  if (types.includes('spreadsheetml')) {
    return new DocxPackageError('it is an Excel workbook, not a Word document', 'Upload it with the .xlsx extension.');
  }
  if (types.includes('presentationml')) {
    return new DocxPackageError(
      'it is a PowerPoint presentation, not a Word document',
      'Upload it with the .pptx extension.',
    );
  }
  if (types.includes('wordprocessingml'))
    return new DocxPackageError(`its main document part (${documentPath}) is missing`);
  return new DocxPackageError('it is a ZIP archive but not a Word document', 'Upload the files inside it instead.');
}

function parseWithName(xml: string, path: string): XmlElement {
  try {
    return parseXml(xml, path);
  } catch (error) {
    if (error instanceof XmlPartError) throw new DocxPackageError(error.message);
    throw error;
  }
}

/** The relationships of a part (`''` for the package itself), targets resolved to part names. */
async function readRelationships(zip: ZipReader, partPath: string): Promise<Map<string, Relationship>> {
  const dir = posix.dirname(partPath);
  const relsPath = partPath === '' ? '_rels/.rels' : posix.join(dir, '_rels', `${posix.basename(partPath)}.rels`);
  const xml = await readPart(zip, relsPath);
  const out = new Map<string, Relationship>();
  if (xml === undefined) return out;
  for (const rel of elements(parseWithName(xml, relsPath))) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (id === undefined || target === undefined) continue;
    const external = attr(rel, 'TargetMode')?.toLowerCase() === 'external';
    out.set(id, {
      type: attr(rel, 'Type') ?? '',
      target: external ? target : resolvePart(partPath === '' ? '' : dir, target),
      external,
    });
  }
  return out;
}

/** A part's text, found case-insensitively as OPC part names are; undefined when absent. */
async function readPart(zip: ZipReader, name: string): Promise<string | undefined> {
  const wanted = name.replace(/^\//, '').toLowerCase();
  const entry = zip.entries.find((e) => !e.isDirectory && e.name.toLowerCase() === wanted);
  if (!entry) return undefined;
  const bytes = await zip.read(entry, MAX_PART_BYTES);
  return bytes[0] === 0xff && bytes[1] === 0xfe ? bytes.toString('utf16le') : bytes.toString('utf8');
}

/** The text of each paragraph of a part (a paragraph in a text box of it on its own), runs of space as one. */
function paragraphTexts(root: XmlElement): string[] {
  const texts: string[] = [];
  const collect = (element: XmlElement, into: string[]): void => {
    for (const node of element.children) {
      if (typeof node === 'string') continue;
      if (node.name === 'w:p') {
        const own: string[] = [];
        collect(node, own);
        texts.push(own.join('').replace(/\s+/g, ' ').trim());
      } else if (node.name === 'w:t') into.push(node.children.filter((c) => typeof c === 'string').join(''));
      else if (node.name === 'w:tab' || node.name === 'w:br') into.push(' ');
      else collect(node, into);
    }
  };
  collect(root, []);
  return texts.filter((text) => text !== '');
}
