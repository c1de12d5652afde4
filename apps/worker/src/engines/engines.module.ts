import { Global, Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { LANGUAGE_MODEL, TRANSCRIBER } from '@docconv/jobs';
import { OpenAiChatModel, type LanguageModel } from '@docconv/refine';
import { createWhisperTranscriber, type Transcriber } from '@docconv/transcription';

/**
 * The engines a worker holds for its whole life: the speech model, loaded once at boot (a
 * model file that does not load stops the boot, naming the file), and the language model
 * client for refinement. Global, so the parse runner can inject them.
 */
@Global()
@Module({
  providers: [
    {
      provide: TRANSCRIBER,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<Transcriber | null> => {
        const path = config.engines.whisperModelPath;
        if (!path) return null;
        const transcriber = await createWhisperTranscriber({ modelPath: path, threads: config.engines.whisperThreads });
        new Logger('Engines').log(`Speech model ${path} loaded`);
        return transcriber;
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
