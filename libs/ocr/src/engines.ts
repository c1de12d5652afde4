import { DomainError } from '@docconv/contracts';
import { EasyOcrEngine } from './easyocr';
import type { OcrEngine, OcrEngineName } from './engine';
import { RapidOcrEngine } from './rapidocr';
import { TesseractEngine } from './tesseract';

/** Where the engines that live outside this process are, from the worker's configuration. */
export interface OcrSettings {
  /** The engines' Python, with EasyOCR's models; unset when EasyOCR is not installed. */
  enginesPython?: string;
  /** Threads one reading may use in the engines that run models (EasyOCR, RapidOCR); 1 when unset. */
  threads?: number;
}

/**
 * The engines that start on this machine, Tesseract first (it always runs: natively, or as
 * tesseract.js from npm).
 */
export async function availableOcrEngines(settings: OcrSettings): Promise<OcrEngineName[]> {
  const engines: OcrEngineName[] = ['tesseract'];
  if (await RapidOcrEngine.available()) engines.push('rapidocr');
  if (settings.enginesPython && (await EasyOcrEngine.available(settings.enginesPython))) engines.push('easyocr');
  return engines;
}

/**
 * Opens the named engine. Engines are heavy to start (models, child processes): open one per
 * file and close it when done. rapidocr hands Korean lines to a Tesseract it opens alongside.
 */
export async function openOcrEngine(name: OcrEngineName, settings: OcrSettings): Promise<OcrEngine> {
  switch (name) {
    case 'tesseract':
      return TesseractEngine.create();
    case 'rapidocr':
      return withKorean((korean) => RapidOcrEngine.create({ korean, threads: settings.threads }));
    case 'easyocr': {
      const python = settings.enginesPython;
      if (!python)
        throw new DomainError(
          'engine_unavailable',
          'The easyocr engine is not configured on this worker (ENGINES_PYTHON).',
        );
      return withKorean((tesseract) => EasyOcrEngine.create({ python, tesseract, threads: settings.threads }));
    }
  }
}

/** An engine opened with a Tesseract beside it for Korean lines; closing the engine closes both. */
async function withKorean(open: (korean: TesseractEngine) => Promise<OcrEngine>): Promise<OcrEngine> {
  const korean = await TesseractEngine.create();
  try {
    return await open(korean);
  } catch (error) {
    await korean.close();
    throw error;
  }
}
