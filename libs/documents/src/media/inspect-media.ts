import { DomainError } from '@docconv/contracts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Encoder padding at the end of a stream (AAC priming, MP3 frames) is not billed. */
const PADDING_SECONDS = 0.05;

/** Whole seconds, rounded up, after forgiving the last few milliseconds of padding; at least 1. */
export function billableSeconds(duration: number): number {
  return Math.max(1, Math.ceil(duration - PADDING_SECONDS));
}

export interface MediaInfo {
  /** Whole seconds, rounded up. */
  seconds: number;
  hasVideo: boolean;
}

type MusicMetadata = typeof import('music-metadata');
let musicMetadata: Promise<MusicMetadata> | undefined;

/**
 * Duration and whether there is a picture track: `music-metadata` first (milliseconds, no
 * process), `ffprobe` when it cannot tell (AVI, some QuickTime files).
 */
export async function inspectMedia(path: string, displayName: string): Promise<MediaInfo> {
  musicMetadata ??= import('music-metadata');
  try {
    const { format } = await (await musicMetadata).parseFile(path, { duration: true, skipCovers: true });
    if (format.duration !== undefined && Number.isFinite(format.duration) && format.duration > 0) {
      return { seconds: billableSeconds(format.duration), hasVideo: format.hasVideo === true };
    }
  } catch {
    // fall through to ffprobe
  }
  return probe(path, displayName);
}

async function probe(path: string, displayName: string): Promise<MediaInfo> {
  let output: string;
  try {
    ({ stdout: output } = await run(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', path],
      { timeout: 30_000, maxBuffer: 1024 * 1024 },
    ));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new DomainError(
      'unsupported_format',
      missing
        ? `The length of ${displayName} cannot be measured on this server. Convert it to MP3 or MP4 and upload it again.`
        : `${displayName} is not a readable audio or video file. Check that the file is complete.`,
    );
  }
  const parsed = JSON.parse(output) as { format?: { duration?: string }; streams?: { codec_type?: string }[] };
  const seconds = Number(parsed.format?.duration);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new DomainError(
      'unsupported_format',
      `${displayName} has no measurable duration. Check that the file is complete.`,
    );
  }
  return { seconds: billableSeconds(seconds), hasVideo: (parsed.streams ?? []).some((s) => s.codec_type === 'video') };
}
