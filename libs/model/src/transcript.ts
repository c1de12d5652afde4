import { plain, type Inline, type TranscriptBlock } from './document';

/**
 * How every writer shows a stretch of a recording: its start time in brackets (`[mm:ss]`,
 * `[h:mm:ss]` from the first hour on), then the speaker when known, then what was said. The
 * Markdown writer and the office writers both write this, so a transcript reads the same in
 * result.md and in a DOCX rendered from it.
 */
export function transcriptContent(block: TranscriptBlock): Inline[] {
  const start = block.from.seconds?.[0];
  return [
    ...plain(start === undefined ? '' : `[${timestamp(start)}] `),
    ...plain(block.speaker ? `${block.speaker}: ` : ''),
    ...block.content,
  ];
}

/** `mm:ss` below an hour, `h:mm:ss` from there on; seconds rounded down. */
export function timestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const mmss = `${pad(minutes)}:${pad(rest)}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
