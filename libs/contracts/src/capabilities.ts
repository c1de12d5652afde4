/**
 * What a worker can run, as it reports it to the API: the OCR engines it could start, the
 * speech model it loaded, and the language model it refines with. Workers of one deployment
 * run the same image, so the API trusts the latest report from a live worker.
 */
export interface WorkerCapabilities {
  worker_id: string;
  /** When the report was written (milliseconds since the epoch). */
  reported_at: number;
  ocr_engines: ('tesseract' | 'easyocr' | 'rapidocr')[];
  /** How tesseract runs: the native program or tesseract.js. */
  tesseract_runtime: 'native' | 'wasm';
  ocr_languages: string[];
  transcription: {
    available: boolean;
    model: {
      name: string;
      sha256: string;
      official: boolean;
      size_bytes: number;
      /** The engine running the model, with its version: `faster-whisper 1.2.1`, `whisper.cpp`. */
      engine: string;
      /** ISO 639-1 codes of the languages the model transcribes. */
      languages: string[];
    } | null;
  };
  refinement: { available: boolean; model: string | null };
  /** The Python engines this worker runs (EasyOCR, speech), as their processes report themselves. */
  engines: EngineReport[];
}

/** One engine process's state: whether it runs, its version, what it loaded. */
export interface EngineReport {
  name: string;
  status: 'starting' | 'ready' | 'failed' | 'stopped';
  version: string | null;
  /** The languages its weights cover (ISO 639-1 codes). */
  languages: string[];
  /** The weight files or model it loaded. */
  weights: string[];
  /** Processes started again after one ended, since the worker started. */
  restarts: number;
  /** Why it is not running, when it failed. */
  detail?: string;
}

/** Redis hash (under the configured prefix): worker id → its JSON capabilities report. */
export const WORKER_CAPABILITIES_KEY = 'workers:capabilities';
