import type { Transcript } from './transcriber';

/**
 * A transcript as Markdown: a `##` heading, the language, then one paragraph per segment
 * starting with its time (`[mm:ss]`, or `[h:mm:ss]` from the first hour on).
 */
export function transcriptMarkdown(title: string, transcript: Transcript): string {
  const lines = [`## ${singleLine(title)}`, `Language: ${transcript.language}`];
  if (transcript.note) lines.push(`> ${singleLine(transcript.note)}`);
  const spoken = transcript.segments.filter((segment) => singleLine(segment.text) !== '');
  if (spoken.length === 0) lines.push('No speech was recognised in this recording.');
  for (const segment of spoken) lines.push(`[${timestamp(segment.start)}] ${singleLine(segment.text)}`);
  return `${lines.join('\n\n')}\n`;
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

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
