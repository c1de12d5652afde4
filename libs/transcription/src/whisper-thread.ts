import { Whisper, WhisperFullParams, WhisperSamplingStrategy, type Segment } from '@napi-rs/whisper';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { planBlocks, SAMPLE_RATE } from './audio-blocks';
import { decodeAudioFile, UnreadableAudioError } from './decode-audio';
import type { Transcript, TranscriptSegment } from './transcriber';
import type { LoadMessage, RequestMessage, TranscribeRequest, WhisperThreadData } from './whisper-thread-protocol';

/**
 * The whisper thread: loads the model once, then transcribes one file at a time on request.
 * whisper.cpp's `full` blocks the thread it runs on for the whole transcription, which is why
 * it runs here and not on the worker's event loop.
 */
if (parentPort) serve(parentPort, workerData as WhisperThreadData);

function serve(port: MessagePort, { modelPath, threads }: WhisperThreadData): void {
  const post = (message: LoadMessage | RequestMessage) => port.postMessage(message);
  let whisper: Whisper;
  try {
    whisper = new Whisper(modelPath);
  } catch (error) {
    post({ type: 'load-failed', message: messageOf(error) });
    return;
  }
  post({ type: 'ready' });

  let queue = Promise.resolve();
  port.on('message', (request: TranscribeRequest) => {
    queue = queue.then(async () => {
      const progress = (fraction: number) => post({ type: 'progress', id: request.id, fraction });
      try {
        const transcript = await transcribeFile(whisper, request, threads, progress);
        post({ type: 'done', id: request.id, transcript });
      } catch (error) {
        const unreadableAudio = error instanceof UnreadableAudioError;
        post({ type: 'failed', id: request.id, message: messageOf(error), unreadableAudio });
      }
    });
  });
}

/**
 * Decodes the file and transcribes it block by block, reporting progress after each block.
 * Each block detects its own language; the transcript's language is the one heard longest.
 */
async function transcribeFile(
  whisper: Whisper,
  { path, blockSeconds }: TranscribeRequest,
  threads: number,
  onProgress: (fraction: number) => void,
): Promise<Transcript> {
  const samples = await decodeAudioFile(path);
  const segments: TranscriptSegment[] = [];
  const secondsByLanguage = new Map<string, number>();
  for (const block of planBlocks(samples, blockSeconds)) {
    const heard = await transcribeBlock(whisper, samples.subarray(block.start, block.end), threads);
    const [blockStart, blockEnd] = [block.start / SAMPLE_RATE, block.end / SAMPLE_RATE];
    for (const segment of heard.segments) {
      const text = segment.text.trim();
      // whisper times are centiseconds from the block's start; its last segment may run past the audio.
      const end = Math.min(blockStart + segment.end / 100, blockEnd);
      if (text) segments.push({ start: Math.min(blockStart + segment.start / 100, end), end, text });
    }
    secondsByLanguage.set(heard.language, (secondsByLanguage.get(heard.language) ?? 0) + blockEnd - blockStart);
    onProgress(block.end / samples.length);
  }
  if (samples.length === 0) onProgress(1);
  return { language: longestHeard(secondsByLanguage), segments };
}

interface BlockResult {
  language: string;
  segments: Segment[];
}

async function transcribeBlock(whisper: Whisper, samples: Float32Array, threads: number): Promise<BlockResult> {
  const params = new WhisperFullParams(WhisperSamplingStrategy.Greedy);
  params.nThreads = threads;
  // English-only models have no language tokens to detect with.
  params.language = whisper.isMultilingual ? 'auto' : 'en';
  params.printProgress = false;
  params.printRealtime = false;
  const segments: Segment[] = [];
  params.onNewSegment = (segment) => segments.push(segment);
  const text = whisper.full(params, samples);
  await callbacksDelivered(() => segments.length);
  if (segments.length === 0 && text.trim() !== '')
    segments.push({ text, start: 0, end: (samples.length / SAMPLE_RATE) * 100 });
  return { language: Whisper.lang(whisper.fullLangId) ?? 'und', segments };
}

/**
 * The binding queues its callbacks to this thread's event loop, so they arrive only after
 * `full` returns, a thousand per loop turn at most. Waits until two whole turns, each with its
 * poll phase, bring nothing new.
 */
async function callbacksDelivered(count: () => number): Promise<void> {
  let seen = count();
  for (let quietTurns = 0; quietTurns < 2;) {
    await new Promise((resolve) => setImmediate(resolve));
    if (count() === seen) quietTurns++;
    else [seen, quietTurns] = [count(), 0];
  }
}

function longestHeard(secondsByLanguage: Map<string, number>): string {
  let best = 'und';
  let bestSeconds = -1;
  for (const [language, seconds] of secondsByLanguage) {
    if (seconds > bestSeconds) [best, bestSeconds] = [language, seconds];
  }
  return best;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
