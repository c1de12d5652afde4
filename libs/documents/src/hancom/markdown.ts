import { writeMarkdown } from '@docconv/model';
import { hancomDocument } from './hancom-document';
import type { HancomDocument } from './model';

/** The Markdown of a document read into the Hancom model: the model's writer over `hancomDocument`. */
export function hancomMarkdown(document: HancomDocument, file = 'document.hwp'): string {
  return writeMarkdown(hancomDocument(document, file));
}
