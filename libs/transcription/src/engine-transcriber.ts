import { DomainError } from '@docconv/contracts';
import { EngineCallError, findAbove, PythonEngine, type EngineState } from '@docconv/engines';
import { join } from 'node:path';
import type { Transcriber, Transcript, TranscriptionProgress } from './transcriber';

/** The speech engine's server script below the repository root (and below `dist`). */
const SERVER_SCRIPT = join('libs', 'transcription', 'python', 'whisper_server.py');

/**
 * CTranslate2 conversions of OpenAI's Whisper by Systran, by the SHA-256 of their `model.bin`
 * (the Git LFS object id at huggingface.co/Systran/faster-whisper-<name>).
 */
const SYSTRAN_MODELS: Readonly<Record<string, string>> = {
  d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9: 'faster-whisper-base',
  '1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a': 'faster-whisper-tiny.en',
};

export interface EngineTranscriberOptions {
  /** The engines' Python (ENGINES_PYTHON), with faster-whisper installed. */
  python: string;
  /** A CTranslate2 Whisper model folder; by default the one the setup joins in the engines' venv. */
  modelDir?: string;
  threads?: number;
}

/** What the speech engine loaded, from its ready line. */
export interface SpeechModel {
  name: string;
  sha256: string;
  sizeBytes: number;
  multilingual: boolean;
  /** Whether the weights are byte for byte one of Systran's published conversions. */
  official: boolean;
  languages: string[];
  engine: string;
  version: string;
}

/**
 * Whisper through faster-whisper in an engine process (libs/engines): files are transcribed one
 * at a time in the order asked; a recording that cannot be decoded is `file_processing_failed`;
 * a crashed process is started again for the next file.
 */
export class EngineTranscriber implements Transcriber {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly engine: PythonEngine,
    readonly model: SpeechModel,
  ) {}

  static async create(options: EngineTranscriberOptions): Promise<EngineTranscriber> {
    const env: Record<string, string> = { WHISPER_THREADS: String(options.threads ?? 2) };
    if (options.modelDir) env.WHISPER_MODEL_DIR = options.modelDir;
    const engine = await PythonEngine.create({
      name: 'faster-whisper',
      label: 'speech engine',
      python: options.python,
      script: findAbove(__dirname, SERVER_SCRIPT),
      env,
    });
    return new EngineTranscriber(engine, speechModel(engine.state()));
  }

  transcribe(path: string, onProgress?: TranscriptionProgress, deadline?: number): Promise<Transcript> {
    const run = this.queue.then(() => this.run(path, onProgress, deadline));
    this.queue = run.catch(() => undefined);
    return run;
  }

  state(): EngineState {
    return this.engine.state();
  }

  pid(): Promise<number | undefined> {
    return this.engine.pid();
  }

  close(): Promise<void> {
    return this.engine.close();
  }

  private async run(path: string, onProgress?: TranscriptionProgress, deadline?: number): Promise<Transcript> {
    try {
      const result = await this.engine.call<EngineResult>(
        { path },
        { onProgress, timeoutMs: deadline === undefined ? undefined : Math.max(1, deadline - Date.now()) },
      );
      onProgress?.(1);
      return {
        language: result.language,
        segments: result.segments,
        note: this.model.multilingual
          ? undefined
          : `The speech model (${this.model.name}) knows English only: speech in another language comes out as English words.`,
      };
    } catch (error) {
      if (error instanceof EngineCallError)
        throw new DomainError('file_processing_failed', `The recording could not be transcribed: ${error.message}`);
      throw error;
    }
  }
}

interface EngineResult {
  language: string;
  duration: number;
  segments: { start: number; end: number; text: string }[];
}

function speechModel(state: EngineState): SpeechModel {
  const info = state.info as {
    engine: string;
    version: string;
    languages: string[];
    model: { name: string; sha256: string; size_bytes: number; multilingual: boolean };
  };
  const official = SYSTRAN_MODELS[info.model.sha256];
  return {
    name: official ?? info.model.name,
    sha256: info.model.sha256,
    sizeBytes: info.model.size_bytes,
    multilingual: info.model.multilingual,
    official: official !== undefined,
    languages: info.languages,
    engine: info.engine,
    version: info.version,
  };
}
