import { Global, Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { LANGUAGE_MODEL, TRANSCRIBER } from '@docconv/pipeline';
import { OpenAiChatModel, type LanguageModel } from '@docconv/refine';
import { createWhisperTranscriber, EngineTranscriber, type Transcriber } from '@docconv/transcription';

/**
 * The engines a worker holds for its whole life: the speech model, loaded once at boot, and the
 * language model client for refinement. The speech model is a whisper.cpp file when
 * WHISPER_MODEL_PATH names one (a file that does not load stops the boot, naming it), else
 * faster-whisper in the engines' Python (ENGINES_PYTHON) with the model the setup installed. Global, so the parse runner can inject them.
 */
@Global()
@Module({
  providers: [
    {
      provide: TRANSCRIBER,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<Transcriber | null> => {
        const logger = new Logger('Engines');
        const { whisperModelPath, enginesPython, threads } = config.engines;
        if (whisperModelPath) {
          const transcriber = await createWhisperTranscriber({ modelPath: whisperModelPath, threads });
          logger.log(`Speech model ${whisperModelPath} loaded (whisper.cpp)`);
          return transcriber;
        }
        if (!enginesPython) return null;
        try {
          const transcriber = await EngineTranscriber.create({ python: enginesPython, threads });
          logger.log(
            `Speech model ${transcriber.model.name} loaded (${transcriber.model.engine} ${transcriber.model.version})`,
          );
          return transcriber;
        } catch (error) {
          // The worker still converts documents; audio and video are refused while no speech model runs.
          logger.error(`The speech engine did not start with ${enginesPython}: ${(error as Error).message}`);
          return null;
        }
      },
    },
    {
      provide: LANGUAGE_MODEL,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): LanguageModel | null =>
        config.engines.llm ? new OpenAiChatModel(config.engines.llm) : null,
    },
  ],
  exports: [TRANSCRIBER, LANGUAGE_MODEL],
})
export class EnginesModule {}
