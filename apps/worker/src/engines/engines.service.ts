import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { WORKER_CAPABILITIES_KEY, type WorkerCapabilities } from '@docconv/contracts';
import { LANGUAGE_MODEL, TRANSCRIBER } from '@docconv/pipeline';
import { engineReport } from '@docconv/engines';
import { availableOcrEngines, EasyOcrEngine, nativeAvailable, OCR_LANGUAGES } from '@docconv/ocr';
import { REDIS, redisKey } from '@docconv/redis';
import type { LanguageModel } from '@docconv/refine';
import {
  describeModel,
  EngineTranscriber,
  WHISPER_LANGUAGES,
  WhisperTranscriber,
  type Transcriber,
} from '@docconv/transcription';
import type { Redis } from 'ioredis';
import { HeartbeatService } from '../maintenance/heartbeat.service';

const REPORT_INTERVAL_MS = 30_000;

/**
 * Finds out once at boot what this worker can run — the OCR engines that start here, the
 * speech model it loaded, the language model it refines with — and reports it to the API
 * through Redis, again every half minute (so a Redis restart loses nothing for long). Closes
 * the engines on shutdown.
 */
@Injectable()
export class EnginesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EnginesService.name);
  private report?: Omit<WorkerCapabilities, 'reported_at'>;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly heartbeat: HeartbeatService,
    @Inject(TRANSCRIBER) private readonly transcriber: Transcriber | null,
    @Inject(LANGUAGE_MODEL) private readonly languageModel: LanguageModel | null,
  ) {}

  private get key(): string {
    return redisKey(this.config, WORKER_CAPABILITIES_KEY);
  }

  async onApplicationBootstrap(): Promise<void> {
    const model = await this.speechModel();
    this.report = {
      worker_id: this.heartbeat.workerId,
      ocr_engines: await availableOcrEngines({ enginesPython: this.config.engines.enginesPython ?? undefined }),
      tesseract_runtime: (await nativeAvailable()) ? 'native' : 'wasm',
      ocr_languages: [...OCR_LANGUAGES],
      transcription: {
        available: this.transcriber !== null,
        model,
      },
      refinement: { available: this.languageModel !== null, model: this.config.engines.llm?.model ?? null },
      engines: await this.engineReports(),
    };
    this.logger.log(
      `OCR engines: ${this.report.ocr_engines.join(', ')}; transcription ${model ? `with ${model.name} (${model.engine})` : 'off'}; refinement ${this.report.refinement.available ? 'on' : 'off'}`,
    );
    await this.publish();
    this.timer = setInterval(() => void this.publish(), REPORT_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.hdel(this.key, this.heartbeat.workerId).catch(() => undefined);
    await this.transcriber?.close();
  }

  /** The Python engines' states: EasyOCR as it started at boot, the speech engine as it runs now. */
  private async engineReports(): Promise<WorkerCapabilities['engines']> {
    const python = this.config.engines.enginesPython;
    const reports = python ? [engineReport(await EasyOcrEngine.probe(python))] : [];
    if (this.transcriber instanceof EngineTranscriber) reports.push(engineReport(this.transcriber.state()));
    return reports;
  }

  /** The loaded speech model as the capabilities describe it. */
  private async speechModel(): Promise<WorkerCapabilities['transcription']['model']> {
    const transcriber = this.transcriber;
    if (transcriber instanceof EngineTranscriber) {
      const { name, sha256, official, sizeBytes, engine, version, languages } = transcriber.model;
      return { name, sha256, official, size_bytes: sizeBytes, engine: `${engine} ${version}`, languages };
    }
    const path = this.config.engines.whisperModelPath;
    if (!(transcriber instanceof WhisperTranscriber) || !path) return null;
    const { name, sha256, official, sizeBytes } = await describeModel(path);
    const languages = transcriber.model.multilingual ? [...WHISPER_LANGUAGES] : ['en'];
    return { name, sha256, official, size_bytes: sizeBytes, engine: 'whisper.cpp', languages };
  }

  private async publish(): Promise<void> {
    if (!this.report) return;
    try {
      // The speech engine's state changes as it runs (restarts): read it again each time.
      const report = { ...this.report, engines: await this.engineReports(), reported_at: Date.now() };
      await this.redis.hset(this.key, this.heartbeat.workerId, JSON.stringify(report));
    } catch (error) {
      this.logger.warn({ err: error }, 'Capabilities not reported; Redis is unreachable');
    }
  }
}
