import { countImages } from './image/inspect-image';
import type { DetectedFile, Inspection } from './kinds';
import { countPdfPages } from './pdf/inspect-pdf';

/** Measures what is priced: pages, images, media seconds. Throws a DomainError on an unreadable file. */
export async function inspect(path: string, detected: DetectedFile, displayName: string): Promise<Inspection> {
  switch (detected.kind) {
    case 'pdf':
      return { pages: await countPdfPages(path, displayName), images: 0, durationSeconds: 0 };
    case 'image':
      return { pages: 0, images: await countImages(path, detected.mime, displayName), durationSeconds: 0 };
    case 'markdown':
      return { pages: 0, images: 0, durationSeconds: 0 };
  }
}
