import { DomainError } from '@docconv/contracts';
import type { ReceivedFile } from '@docconv/jobs';
import { parseUploadOptions, UPLOAD_FIELDS, type Capabilities } from './upload-options';

const CAPABILITIES: Capabilities = { engines: ['tesseract', 'easyocr'], refinement: false, transcription: false };
const file = (): ReceivedFile => ({ tempPath: '/tmp/1', filename: 'a.pdf', bytes: 10 });

function fieldsOf(error: unknown): string[] {
  expect(error).toBeInstanceOf(DomainError);
  return ((error as DomainError).errors ?? []).map((e) => e.field);
}

describe('upload form fields', () => {
  it('take every field sent empty, as a form that sends each field does, for its default', () => {
    const empty = Object.fromEntries(UPLOAD_FIELDS.map((name) => [name, '']));
    expect(parseUploadOptions(empty, [file()], CAPABILITIES)).toEqual(parseUploadOptions({}, [file()], CAPABILITIES));
    expect(parseUploadOptions(empty, [file()], CAPABILITIES)).toMatchObject({
      model: 'premium',
      engine: 'easyocr',
      columns: null,
      prompt: '',
      dpi: 300,
      refinement: false,
      callbackUrl: null,
    });
  });

  it('pick the first engine the server has when the engine is left empty and easyocr is not there', () => {
    const options = parseUploadOptions({ ocr_engine: ' ' }, [file()], { ...CAPABILITIES, engines: ['tesseract'] });
    expect(options.engine).toBe('tesseract');
  });

  it('still refuse a value that is not empty and not allowed', () => {
    let thrown: unknown;
    try {
      parseUploadOptions({ ocr_model: 'deluxe', ocr_engine: 'magic', dpi: 'high' }, [file()], CAPABILITIES);
    } catch (error) {
      thrown = error;
    }
    expect(fieldsOf(thrown)).toEqual(['ocr_model', 'ocr_engine', 'dpi']);
  });
});
