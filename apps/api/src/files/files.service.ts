import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { contentTypeOf, Storage, verifyLocalFileUrl, type LocalFileUrlQuery } from '@docconv/storage';

/** A stored file a download link grants, ready to send. */
export interface DownloadableFile {
  body: Readable;
  contentType: string;
  /** The download name signed into the link; null serves the file without one. */
  filename: string | null;
}

/** Serves the files that the local store's signed download links point at. */
@Injectable()
export class FilesService {
  constructor(
    private readonly storage: Storage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checks the link (403 `signed_url_invalid`), then opens its file (404 when it is gone). */
  async open(path: string, link: LocalFileUrlQuery): Promise<DownloadableFile> {
    const { fileUrlSecret, signedUrlTtlSeconds } = this.config.storage;
    const granted = verifyLocalFileUrl(path, link, { secret: fileUrlSecret, defaultTtlSeconds: signedUrlTtlSeconds });
    if (!(await this.storage.exists(granted.path))) {
      throw new DomainError(
        'not_found',
        'The file behind this download link no longer exists; it may have been deleted. ' +
          'Check its job with GET /api/v1/jobs/{job_id}.',
      );
    }
    return {
      body: await this.storage.stream(granted.path),
      contentType: contentTypeOf(granted.path),
      filename: granted.filename,
    };
  }
}
