import { plain, writeMarkdown, type Block, type Document } from '@docconv/model';
import type { Transcript } from './transcriber';

/**
 * A recording's transcript as a document: a level-2 heading with the file's name, a paragraph
 * with the language (and the engine's note, set apart as a quotation), then one `transcript`
 * block per segment that has words, with when it was said (`from.seconds`); a paragraph says so
 * when none has. `file` is the recording's name as the job shows it: the heading and every
 * block's provenance. Whitespace in the engine's text (line breaks included) is one space.
 */
export function transcriptDocument(file: string, transcript: Transcript): Document {
  const from = { file };
  const blocks: Block[] = [
    { type: 'heading', level: 2, content: plain(singleLine(file)), from },
    { type: 'paragraph', content: plain(`Language: ${transcript.language}`), from },
  ];
  if (transcript.note)
    blocks.push({ type: 'paragraph', quote: true, content: plain(singleLine(transcript.note)), from });
  const spoken = transcript.segments.filter((segment) => singleLine(segment.text) !== '');
  if (spoken.length === 0)
    blocks.push({ type: 'paragraph', content: plain('No speech was recognised in this recording.'), from });
  for (const segment of spoken)
    blocks.push({
      type: 'transcript',
      content: plain(singleLine(segment.text)),
      from: { file, seconds: [segment.start, segment.end] },
    });
  return { version: 1, blocks };
}

/** A transcript's Markdown: its document written (`[mm:ss] text` per segment, see transcriptContent). */
export function transcriptMarkdown(file: string, transcript: Transcript): string {
  return writeMarkdown(transcriptDocument(file, transcript));
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
