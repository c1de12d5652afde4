import type { OcrEngine, OcrModel } from '@docconv/db';
import type { HtmlContent } from '@docconv/documents';
import type { PageFurniture } from '@docconv/model';

/** A file received by the API, already on local disk. */
export interface ReceivedFile {
  tempPath: string;
  /** The name the client sent (no directories). */
  filename: string;
  /** From `relative_paths`, when given: what the result's headings and the job show. */
  relativePath?: string;
  bytes: number;
}

export interface UploadOptions {
  model: OcrModel;
  engine: OcrEngine;
  columns: string[] | null;
  prompt: string;
  dpi: number;
  refinement: boolean;
  /** Whether audio and video can be transcribed here; when not, media uploads are refused. */
  transcription: boolean;
  /** Where the job's end is reported (webhooks), as parsed from the upload; checked against the policy at creation. */
  callbackUrl?: string | null;
  /** What to do with page furniture; dropped when absent. */
  pageFurniture?: PageFurniture;
  /** What of a web page is read, and priced: the article of a whole page (`main`) when absent. */
  htmlContent?: HtmlContent;
}

export interface Caller {
  userId: string;
  apiKeyId: string | null;
}
