import { writeMarkdown, type Document } from '@docconv/model';
import { unreadable } from '../office/ooxml';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { withZip } from '../zip/zip-reader';
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
  try {
    return await withZip(
      path,
      (zip) => readPresentation(zip, displayName),
      new DecompressionBudget(displayName, limits),
    );
  } catch (error) {
    throw unreadable(error, displayName, 'PowerPoint', 'Check that it opens in PowerPoint, save it again as .pptx');
  }
}

/** A PowerPoint file's Markdown: the Markdown writer's, of its document. */
export async function extractPptx(path: string, displayName: string, limits?: DecompressionLimits): Promise<string> {
  return writeMarkdown(await readPptx(path, displayName, limits));
}
