import { writeMarkdown, type Document } from '@docconv/model';
import { readOfficePackage } from '../office/ooxml';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { readPresentation } from './pptx-reader';

/**
 * A PowerPoint file as a document, read straight from its OOXML parts (see `readPresentation`):
 * one heading per slide, its shapes in reading order, then its notes and comments.
 */
export async function readPptx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Document> {
  return readOfficePackage(path, displayName, limits, { name: 'PowerPoint', extension: 'pptx' }, (zip) =>
    readPresentation(zip, displayName),
  );
}

/** A PowerPoint file's Markdown: the Markdown writer's, of its document. */
export async function extractPptx(path: string, displayName: string, limits?: DecompressionLimits): Promise<string> {
  return writeMarkdown(await readPptx(path, displayName, limits));
}
