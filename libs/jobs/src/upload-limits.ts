import type { AppConfig } from '@docconv/config';
import type { ArchiveLimits } from '@docconv/documents';

/** The configured limits every reader of an upload is held to: at intake in the API and again in the worker. */
export function uploadLimits(config: AppConfig): ArchiveLimits {
  return {
    maxFiles: config.limits.maxFilesPerUpload,
    maxTotalBytes: config.limits.maxUncompressedBytes,
    maxRatio: config.limits.maxCompressionRatio,
  };
}
