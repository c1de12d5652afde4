import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { IntakePool, type IntakeOptions, type IntakeResult } from '@docconv/documents';
import type { ReceivedFile } from './upload.types';
import { uploadLimits } from './upload-limits';

/**
 * Inspects uploads in the intake pool's threads (a memory cap and a deadline each), within the
 * configured upload limits. The pool's threads start on the first upload, so a worker process,
 * which never inspects uploads, never starts them.
 */
@Injectable()
export class IntakeService implements OnApplicationShutdown {
  private readonly pool: IntakePool;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.pool = new IntakePool(config.limits.intake);
  }

  /**
   * The files of an upload, typed and measured, and the members of its archives and e-mails
   * that were skipped; archives and attachments are unpacked into `workFolder`. `options.media`:
   * audio and video are accepted here; `options.htmlContent`: what of a web page is priced.
   */
  inspect(received: ReceivedFile[], workFolder: string, options: IntakeOptions): Promise<IntakeResult> {
    return this.pool.run(
      received.map((f) => ({ path: f.tempPath, displayName: f.relativePath ?? f.filename })),
      workFolder,
      uploadLimits(this.config),
      options,
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.pool.close();
  }
}
