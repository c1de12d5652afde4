import { DomainError } from '@docconv/contracts';
import { writeMarkdown } from '@docconv/model';
import type { Extraction } from '@docconv/reading';
import { transcriptDocument, type Transcriber } from '@docconv/transcription';

/**
 * A job's recording read by the speech model the worker loaded at boot: the transcript's
 * document (a transcript block per segment, with its seconds) and its Markdown. No model on this
 * worker, or a recording still being heard at the job's deadline (ms since the epoch), fails
 * the file with a code that says which.
 */
export async function transcribeRecording(
  transcriber: Transcriber | null,
  path: string,
  displayName: string,
  deadline: number,
  onProgress: (fraction: number) => void,
): Promise<Extraction> {
  if (!transcriber)
    throw new DomainError(
      'transcription_unavailable',
      `${displayName}: transcription is not available on this worker (no speech model is configured). Ask for a refund.`,
    );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DomainError(
            'file_processing_failed',
            `${displayName} took longer than this job may run. Ask for a refund, or split the recording.`,
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    const transcript = await Promise.race([transcriber.transcribe(path, onProgress, deadline), late]);
    const document = transcriptDocument(displayName, transcript);
    return { markdown: writeMarkdown(document), pages: [], document };
  } finally {
    clearTimeout(timer);
  }
}
