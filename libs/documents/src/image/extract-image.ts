import { DomainError } from '@docconv/contracts';
import { tesseractRecognize } from '@docconv/ocr';

/** Markdown from an image: each frame (TIFF pages) read by OCR, paragraphs kept, frames separated by a rule. */
export async function extractImage(
  path: string,
  frames: number,
  displayName: string,
  onFrame: (done: number) => void,
): Promise<string> {
  const parts: string[] = [];
  for (let frame = 0; frame < frames; frame++) {
    try {
      const { text } = await tesseractRecognize(path, frame);
      parts.push(
        text
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
      );
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError(
        'file_processing_failed',
        `${displayName}${frames > 1 ? ` (frame ${frame + 1})` : ''} could not be read: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    onFrame(frame + 1);
  }
  return parts.join('\n\n---\n\n') + '\n';
}
