import { unwrap, type DocconvClient } from './client';
import { dispositionFilename } from './content-disposition';
import { DocconvError } from './errors';
import { normalisePreview, type Job, type UploadPreview } from './normalize';
import type { components, paths } from './schema';

type Schemas = components['schemas'];
type UploadForm = paths['/api/v1/jobs/upload']['post']['requestBody']['content']['multipart/form-data'];

export type OcrModel = NonNullable<UploadForm['ocr_model']>;
export type OcrEngine = NonNullable<UploadForm['ocr_engine']>;
/** What the job does with running heads and feet, page numbers, headers and footers. */
export type PageFurniture = NonNullable<UploadForm['page_furniture']>;
export type HtmlContent = NonNullable<UploadForm['html_content']>;
export type ConversionFormat = Schemas['ConvertDto']['format'];
/** What GET /jobs/{job_id}/download serves: md, json, zip, or a format a conversion produced. */
export type DownloadFormat = NonNullable<
  NonNullable<paths['/api/v1/jobs/{job_id}/download']['get']['parameters']['query']>['format']
>;
export type Confirmation = Schemas['ConfirmResponse'];
/** A conversion result whose `download_url` is absolute, ready to fetch. */
export type Conversion = Schemas['ConversionResponse'];

/**
 * A file to upload, without reading any disk (browser-safe): a `File` (or any Blob with a
 * `name`), or a name and its bytes. The Node entry's `uploadFiles` takes paths on disk too.
 */
export type UploadFile = (Blob & { readonly name: string }) | { name: string; data: Uint8Array | Blob };

export interface UploadOptions {
  /** `basic` or `premium` (the service's default). */
  model?: OcrModel;
  /** The OCR engine; the service picks one it has when left out. */
  engine?: OcrEngine;
  /** Column names for table extraction: a list, or the service's comma-separated form. */
  columns?: string[] | string;
  /** Extra instructions for the model. */
  prompt?: string;
  /** Layout refinement by a language model (PDF, office and HWP files; charged per page). */
  refine?: boolean;
  /** One relative path per file, for files that came out of a folder or archive. */
  relativePaths?: string[];
  /** PDF rendering resolution, 72 to 600. */
  dpi?: number;
  /**
   * Running heads and feet, page numbers, headers and footers: `drop` (the service's default),
   * `keep` in the Markdown where they stand, or `separate` into the structured result.
   */
  pageFurniture?: PageFurniture;
  /**
   * What of a web page is read: `main` (the service's default), the article of a whole web page
   * without the site around it; `full`, everything the page shows.
   */
  htmlContent?: HtmlContent;
  /** Makes a retried upload safe: the service replays its first answer to the same key. */
  idempotencyKey?: string;
}

export interface ChargeOptions {
  /** Makes a retried request safe: the service charges once and replays its first answer to the same key. */
  idempotencyKey?: string;
}

/** The terminal states: a job in one of them will not change any more by itself. */
export const FINISHED_STATUSES: readonly Job['status'][] = ['done', 'error', 'cancelled'];

/** The named File of an upload input: a File as it is, anything else wrapped in one. */
function toFile(input: UploadFile): File {
  if (input instanceof File) return input;
  if (input instanceof Blob) return new File([input], input.name, { type: input.type });
  // The DOM's BlobPart asks for bytes over an ArrayBuffer (not a SharedArrayBuffer), which upload bytes are.
  const data = input.data instanceof Blob ? input.data : (input.data as Uint8Array<ArrayBuffer>);
  return new File([data], input.name);
}

/** The multipart form of an upload: the fields first, then one `files` part per file. */
function toFormData(form: UploadForm): FormData {
  const { files, ...fields } = form;
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) data.append(name, String(value));
  }
  for (const file of files) data.append('files', file);
  return data;
}

/** Maps the SDK's option names onto the upload's form fields (spec 4.3). */
function uploadForm(files: File[], options: Omit<UploadOptions, 'idempotencyKey'>): UploadForm {
  const { columns } = options;
  return {
    files,
    ocr_model: options.model,
    ocr_engine: options.engine,
    columns: Array.isArray(columns) ? JSON.stringify(columns) : columns,
    prompt: options.prompt,
    dpi: options.dpi,
    relative_paths: options.relativePaths ? JSON.stringify(options.relativePaths) : undefined,
    docling_refinement: options.refine,
    page_furniture: options.pageFurniture,
    html_content: options.htmlContent,
  };
}

/**
 * Uploads files (POST /api/v1/jobs/upload) and returns the cost preview of the new pending
 * job. Nothing is charged until {@link confirm}. The preview is normalised, so fields older
 * services omit are present with their defaults. Browser-safe: the files are given, not read
 * from paths (the Node entry's `uploadFiles` reads paths and then calls this one).
 */
export async function uploadFiles(
  client: DocconvClient,
  inputs: readonly UploadFile[],
  options: UploadOptions = {},
): Promise<UploadPreview> {
  const files = inputs.map(toFile);
  const preview = await unwrap(
    client.api.POST('/api/v1/jobs/upload', {
      params: { header: { 'Idempotency-Key': options.idempotencyKey } },
      body: uploadForm(files, options),
      bodySerializer: toFormData,
    }),
  );
  return normalisePreview(preview);
}

/** Confirms a pending job (POST /api/v1/jobs/{job_id}/confirm): charges the quoted points and queues it. */
export function confirm(client: DocconvClient, jobId: string, options: ChargeOptions = {}): Promise<Confirmation> {
  return unwrap(
    client.api.POST('/api/v1/jobs/{job_id}/confirm', {
      params: { path: { job_id: jobId }, header: { 'Idempotency-Key': options.idempotencyKey } },
    }),
  );
}

/** The Markdown result of a finished job (GET /api/v1/jobs/{job_id}/download). */
export async function downloadMarkdown(client: DocconvClient, jobId: string): Promise<string> {
  const { data, error, response } = await client.api.GET('/api/v1/jobs/{job_id}/download', {
    params: { path: { job_id: jobId } },
    parseAs: 'text',
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return data ?? '';
}

/** A finished job's structured result: its Markdown as typed blocks, each with its span in result.md, page and box. */
export type StructuredResult = Schemas['StructuredResult'];

/** The structured result of a finished job (GET /api/v1/jobs/{job_id}/download?format=json); free. */
export async function downloadStructured(client: DocconvClient, jobId: string): Promise<StructuredResult> {
  const { data, error, response } = await client.api.GET('/api/v1/jobs/{job_id}/download', {
    params: { path: { job_id: jobId }, query: { format: 'json' } },
    parseAs: 'json',
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return data as unknown as StructuredResult;
}

/**
 * A finished job's result as one zip (GET /api/v1/jobs/{job_id}/download?format=zip): result.md,
 * result.json and the images they link; free.
 */
export async function downloadZip(client: DocconvClient, jobId: string): Promise<Uint8Array> {
  const { data, error, response } = await client.api.GET('/api/v1/jobs/{job_id}/download', {
    params: { path: { job_id: jobId }, query: { format: 'zip' } },
    parseAs: 'arrayBuffer',
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return new Uint8Array(data as unknown as ArrayBuffer);
}

/** A downloaded file: its bytes and the name the service gives it (from the job title), if any. */
export interface DownloadedFile {
  bytes: Uint8Array;
  filename: string | null;
}

/**
 * A finished job's result in any downloadable format as bytes with its download name
 * (GET /api/v1/jobs/{job_id}/download?format=…): md, json and zip are free, and a conversion
 * already made downloads again for free.
 */
export async function downloadFile(
  client: DocconvClient,
  jobId: string,
  format: DownloadFormat = 'md',
): Promise<DownloadedFile> {
  const { data, error, response } = await client.api.GET('/api/v1/jobs/{job_id}/download', {
    params: { path: { job_id: jobId }, query: { format } },
    parseAs: 'arrayBuffer',
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return {
    bytes: new Uint8Array(data as unknown as ArrayBuffer),
    filename: dispositionFilename(response.headers.get('Content-Disposition')),
  };
}

/**
 * Converts a finished job to an office format (POST /api/v1/jobs/{job_id}/convert). Only the
 * first conversion of a format is charged; asking again returns the same file. The returned
 * `download_url` is made absolute against the client's base URL.
 */
export async function convert(
  client: DocconvClient,
  jobId: string,
  format: ConversionFormat,
  options: ChargeOptions = {},
): Promise<Conversion> {
  const result = await unwrap(
    client.api.POST('/api/v1/jobs/{job_id}/convert', {
      params: { path: { job_id: jobId }, header: { 'Idempotency-Key': options.idempotencyKey } },
      body: { format },
    }),
  );
  return { ...result, download_url: new URL(result.download_url, `${client.baseUrl}/`).href };
}

/**
 * The bytes of a converted file, fetched from its signed `download_url`. The link is its own
 * credential, so the API key is not sent (the link may point at another host, such as S3).
 */
export async function downloadConverted(client: DocconvClient, conversion: Conversion): Promise<Uint8Array> {
  return (await downloadConvertedFile(client, conversion)).bytes;
}

/** {@link downloadConverted} with the name the signed link saves the file under. */
export async function downloadConvertedFile(client: DocconvClient, conversion: Conversion): Promise<DownloadedFile> {
  const url = new URL(conversion.download_url, `${client.baseUrl}/`).href;
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw DocconvError.network(url, error);
  }
  if (!response.ok) throw DocconvError.fromResponse(response, await readErrorBody(response));
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    filename: dispositionFilename(response.headers.get('Content-Disposition')),
  };
}

/** An error body as openapi-fetch would give it: parsed JSON when it is JSON, else the text. */
async function readErrorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
