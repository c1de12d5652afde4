import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import { extractDocx } from './docx/extract-docx';
import { extractHwp } from './hwp/extract-hwp';
import { extractHwpx } from './hwpx/extract-hwpx';
import { extractImage } from './image/extract-image';
import type { FileKind } from './kinds';
import { extractPdf } from './pdf/extract-pdf';
import { extractPptx } from './pptx/extract-pptx';
import { extractXlsx } from './xlsx/extract-xlsx';

export interface ExtractInput {
  path: string;
  kind: FileKind;
  mime: string;
  displayName: string;
  /** Pages (PDF) or frames (images) as intake counted them. */
  units: number;
}

/** One file to Markdown. `onProgress` receives how many of its pages (or frames) are done. */
export async function extractToMarkdown(input: ExtractInput, onProgress: (done: number) => void): Promise<string> {
  switch (input.kind) {
    case 'markdown':
      return (await readFile(input.path)).toString('utf8');
    case 'pdf':
      return extractPdf(input.path, input.displayName, onProgress);
    case 'image':
      return extractImage(input.path, input.mime, input.units, input.displayName, onProgress);
    case 'hwp':
      return extractHwp(input.path, input.displayName);
    case 'hwpx':
      return extractHwpx(input.path, input.displayName);
    case 'docx':
      return extractDocx(input.path, input.displayName);
    case 'pptx':
      return extractPptx(input.path, input.displayName);
    case 'xlsx':
      return extractXlsx(input.path, input.displayName);
    case 'audio':
    case 'video':
      throw new DomainError(
        'transcription_unavailable',
        `${input.displayName}: transcription of ${input.kind} is not available on this worker. Ask for a refund.`,
      );
  }
}
