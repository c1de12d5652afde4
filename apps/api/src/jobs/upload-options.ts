import { DomainError, type FieldError } from '@docconv/contracts';
import type { OcrEngine, OcrModel } from '@docconv/db';
import { HTML_CONTENT, type HtmlContent } from '@docconv/documents';
import { PAGE_FURNITURE, type PageFurniture } from '@docconv/model';
import type { ReceivedFile, UploadOptions } from '@docconv/jobs';
import { parseCallbackUrl } from '@docconv/webhooks';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { fieldsWithNul } from '../errors/validation';

export const UPLOAD_FIELDS = [
  'ocr_model',
  'ocr_engine',
  'columns',
  'prompt',
  'dpi',
  'relative_paths',
  'docling_refinement',
  'callback_url',
  'page_furniture',
  'html_content',
] as const;

/**
 * The upload form (spec 4.3). Every optional field shows a value the API accepts, so Swagger
 * UI's "Try it out" succeeds with only a file picked: a default where the API has one, and an
 * empty example elsewhere, as Swagger UI sends a field it leaves empty as an empty value and
 * the API takes an empty field as not given.
 */
export const UPLOAD_FORM = {
  type: 'object',
  required: ['files'],
  properties: {
    files: {
      type: 'array',
      items: { type: 'string', format: 'binary' },
      minItems: 1,
      description: 'One or more files, each a part of its own named `files`.',
    },
    ocr_model: { type: 'string', enum: ['basic', 'premium'], default: 'premium' },
    ocr_engine: {
      type: 'string',
      // '' is what a form sends for a field left alone (Swagger UI's "Send empty value").
      enum: ['', 'tesseract', 'easyocr', 'rapidocr'],
      example: '',
      description:
        'Left out or empty: easyocr, or the first engine this server has (GET /capabilities). rapidocr runs with the premium model only.',
    },
    columns: { type: 'string', example: '', description: 'Comma-separated names or a JSON array of names.' },
    callback_url: {
      type: 'string',
      pattern: '^(https?://\\S+)?$',
      maxLength: 2048,
      example: '',
      description:
        'Absolute https URL (plain http only to hosts this deployment allows; empty for none) that receives a signed JSON event when the job ends (done, error, cancelled) and when an XLSX Advanced conversion ends.',
    },
    prompt: { type: 'string', maxLength: 4000, example: '', description: 'Extra instructions for the model.' },
    dpi: { type: 'integer', minimum: 72, maximum: 600, default: 300, description: 'PDF rendering resolution.' },
    relative_paths: {
      type: 'string',
      example: '',
      description: 'JSON array of relative paths, one per file, such as `["invoices/march.pdf"]`.',
    },
    docling_refinement: { type: 'boolean', default: false },
    page_furniture: {
      type: 'string',
      enum: [...PAGE_FURNITURE],
      default: 'drop',
      description:
        'Running heads and feet, page numbers, and the headers and footers of office and Hancom documents (PDF, scanned pages, images, DOCX, ODT, DOC, RTF, HWP, HWPX): ' +
        '`drop` (default) leaves them out; `keep` writes them in the Markdown where they stand (page_header and page_footer blocks of the structured result, with their span); ' +
        '`separate` leaves them out of the Markdown and lists them in the structured result as page_header and page_footer blocks without a span. Priced the same.',
    },
    html_content: {
      type: 'string',
      enum: [...HTML_CONTENT],
      default: 'main',
      description:
        'What of a web page (HTML) is read: `main` (default) reads a whole web page as its article, under its title, without the site around it ' +
        '(navigation, page header and footer, sidebars, tables of contents, language lists, cookie banners, edit controls); a fragment, which has none of these, is read whole. ' +
        '`full` reads everything the page shows. What is read is what is priced.',
    },
  },
} satisfies SchemaObject;

const MODELS: OcrModel[] = ['basic', 'premium'];
const ENGINES: OcrEngine[] = ['tesseract', 'easyocr', 'rapidocr'];

/** What this deployment can run; the spec's default engine falls back to the first available one. */
export interface Capabilities {
  engines: OcrEngine[];
  refinement: boolean;
  transcription: boolean;
}

/**
 * Validates the upload's form fields (spec 4.3). Every problem is collected, so one 400
 * names every offending field. Applies `relative_paths` to the files.
 */
export function parseUploadOptions(
  fields: Record<string, string>,
  files: ReceivedFile[],
  capabilities: Capabilities,
): UploadOptions {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string): void => void errors.push({ field, message });

  for (const name of Object.keys(fields)) {
    if (!(UPLOAD_FIELDS as readonly string[]).includes(name))
      bad(name, `is not a field of this endpoint (${UPLOAD_FIELDS.join(', ')})`);
  }
  for (const { field, message } of fieldsWithNul(fields)) bad(field, message);
  const nulName = files.find((f) => f.filename.includes('\0'));
  if (nulName) bad('files', `the file name ${JSON.stringify(nulName.filename)} contains a NUL character`);

  // A form that sends every field, as Swagger UI and HTML forms do, sends the ones left alone
  // empty: an empty choice means the default, as an empty text field already does below.
  const model = (given(fields.ocr_model) ?? 'premium') as OcrModel;
  if (!MODELS.includes(model)) bad('ocr_model', `must be one of ${MODELS.join(', ')}`);

  let engine = given(fields.ocr_engine) as OcrEngine | undefined;
  if (engine !== undefined && !ENGINES.includes(engine)) bad('ocr_engine', `must be one of ${ENGINES.join(', ')}`);
  else if (engine === 'rapidocr' && model === 'basic') bad('ocr_engine', 'rapidocr runs with the premium model only');

  let dpi = 300;
  const dpiField = given(fields.dpi);
  if (dpiField !== undefined) {
    dpi = Number(dpiField);
    if (!/^\d+$/.test(dpiField) || dpi < 72 || dpi > 600) bad('dpi', 'must be a whole number from 72 to 600');
  }

  const columns =
    fields.columns === undefined || fields.columns.trim() === '' ? null : parseColumns(fields.columns, bad);

  const prompt = fields.prompt ?? '';
  if (prompt.length > 4000) bad('prompt', 'must be at most 4000 characters');

  const refinement = parseBoolean(fields.docling_refinement, 'docling_refinement', bad);

  if (fields.relative_paths !== undefined && fields.relative_paths.trim() !== '') {
    const paths = parseRelativePaths(fields.relative_paths, files.length, bad);
    paths?.forEach((path, i) => (files[i].relativePath = path));
  }

  const callbackUrl = parseCallbackUrlField(fields.callback_url, bad);

  const pageFurniture = (given(fields.page_furniture) ?? 'drop') as PageFurniture;
  if (!PAGE_FURNITURE.includes(pageFurniture)) bad('page_furniture', `must be one of ${PAGE_FURNITURE.join(', ')}`);
  const htmlContent = (given(fields.html_content) ?? 'main') as HtmlContent;
  if (!HTML_CONTENT.includes(htmlContent)) bad('html_content', `must be one of ${HTML_CONTENT.join(', ')}`);

  if (errors.length > 0) {
    throw new DomainError(
      'validation_failed',
      `Some form fields are invalid: ${[...new Set(errors.map((e) => e.field))].join(', ')}.`,
      { errors },
    );
  }

  if (engine === undefined) {
    engine = capabilities.engines.includes('easyocr') ? 'easyocr' : capabilities.engines[0];
  } else if (!capabilities.engines.includes(engine)) {
    throw new DomainError(
      'engine_unavailable',
      `The ${engine} engine is not available on this server. Available: ${capabilities.engines.join(', ')}.`,
      { extensions: { available_engines: capabilities.engines } },
    );
  }
  if (refinement && !capabilities.refinement) {
    throw new DomainError(
      'refinement_unavailable',
      'Layout refinement by a language model is not configured on this server. Send docling_refinement=false.',
    );
  }
  return {
    model,
    engine,
    columns,
    prompt,
    dpi,
    refinement,
    transcription: capabilities.transcription,
    callbackUrl,
    pageFurniture,
    htmlContent,
  };
}

/** A form field's value, or undefined when it was left out or sent empty. */
function given(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === '' ? undefined : raw;
}

/** The optional webhook URL in its stored form; whether this deployment will send to it is checked when the job is created. */
function parseCallbackUrlField(raw: string | undefined, bad: (field: string, message: string) => void): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  const parsed = parseCallbackUrl(raw);
  if ('problem' in parsed) {
    bad('callback_url', parsed.problem);
    return null;
  }
  return parsed.url;
}

function parseColumns(raw: string, bad: (field: string, message: string) => void): string[] | null {
  let names: unknown;
  if (raw.trim().startsWith('[')) {
    try {
      names = JSON.parse(raw);
    } catch {
      bad('columns', 'is not valid JSON; send a JSON array of names or comma-separated names');
      return null;
    }
  } else {
    names = raw.split(',').map((n) => n.trim());
  }
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n.trim() === '' || n.length > 200)) {
    bad('columns', 'must be names of 1 to 200 characters each');
    return null;
  }
  if (names.length > 100) {
    bad('columns', 'may name at most 100 columns');
    return null;
  }
  return (names as string[]).map((n) => n.trim());
}

function parseRelativePaths(
  raw: string,
  fileCount: number,
  bad: (field: string, message: string) => void,
): string[] | null {
  let paths: unknown;
  try {
    paths = JSON.parse(raw);
  } catch {
    bad('relative_paths', 'is not valid JSON; send a JSON array of paths, one per file');
    return null;
  }
  if (!Array.isArray(paths) || paths.length !== fileCount) {
    bad('relative_paths', `must be a JSON array with one path per file (${fileCount})`);
    return null;
  }
  for (const path of paths) {
    if (
      typeof path !== 'string' ||
      path.length === 0 ||
      path.length > 500 ||
      path.startsWith('/') ||
      /^[A-Za-z]:/.test(path) ||
      path.includes('\0') ||
      path.split(/[\\/]/).some((p) => p === '..')
    ) {
      bad('relative_paths', 'must hold relative paths without `..`, at most 500 characters each');
      return null;
    }
  }
  return (paths as string[]).map((p) => p.replace(/\\/g, '/'));
}

function parseBoolean(raw: string | undefined, field: string, bad: (field: string, message: string) => void): boolean {
  if (raw === undefined || raw === '') return false;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  bad(field, 'must be true or false');
  return false;
}
