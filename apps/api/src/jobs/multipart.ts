import { DomainError } from '@docconv/contracts';
import type { ReceivedFile } from '@docconv/jobs';
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface MultipartLimits {
  maxBytes: number;
  maxFiles: number;
  /** An upload whose body stops arriving for this long is cut off. */
  stallMs: number;
}

export interface ReceivedUpload {
  files: ReceivedFile[];
  fields: Record<string, string>;
  /** Removes the temporary folder; always call it. */
  cleanup(): Promise<void>;
}

const FILE_FIELD = 'files';
const MULTIPART = /^\s*multipart\/form-data\s*(;|$)/i;
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 50;
/** What a multipart body may add to its files: part headers, boundaries and the form fields. */
const FRAMING_ALLOWANCE_BYTES = MAX_FIELDS * MAX_FIELD_BYTES + 1024 * 1024;

/**
 * Streams a multipart upload into a temporary folder of its own (under the process's scratch
 * folder), counting bytes as they arrive: a declared length over the limit is refused before any
 * byte is read, the size limit is enforced before anything is buffered, and on any failure —
 * a limit, a malformed body, a client that hangs up or stalls — the folder is removed and the
 * rest of the request is discarded so the client gets a clean answer.
 */
export async function receiveMultipart(
  request: IncomingMessage,
  response: ServerResponse,
  limits: MultipartLimits,
): Promise<ReceivedUpload> {
  if (!MULTIPART.test(request.headers['content-type'] ?? '')) {
    throw new DomainError(
      'malformed_request',
      'Send the upload as multipart/form-data with one or more `files` parts.',
    );
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes + FRAMING_ALLOWANCE_BYTES) {
    response.setHeader('Connection', 'close');
    throw tooLarge(limits.maxBytes);
  }
  const folder = await mkdtemp(join(tmpdir(), 'docconv-upload-'));
  const cleanup = () => rm(folder, { recursive: true, force: true });
  try {
    return { ...(await parse(request, response, folder, limits)), cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

function parse(
  request: IncomingMessage,
  response: ServerResponse,
  folder: string,
  limits: MultipartLimits,
): Promise<Omit<ReceivedUpload, 'cleanup'>> {
  return new Promise((resolve, reject) => {
    const files: ReceivedFile[] = [];
    const fields: Record<string, string> = {};
    const writes: Promise<void>[] = [];
    const streaming = new Set<Readable>();
    let total = 0;
    let failure: DomainError | undefined;

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        defParamCharset: 'utf8',
        limits: {
          fieldSize: MAX_FIELD_BYTES,
          fields: MAX_FIELDS,
          files: limits.maxFiles + 1,
          parts: limits.maxFiles + MAX_FIELDS + 1,
        },
      });
    } catch {
      reject(
        new DomainError('malformed_request', 'The multipart body has no boundary. Let your HTTP client build it.'),
      );
      return;
    }

    let finished = false;
    const fail = (error: DomainError): void => {
      if (failure) return;
      failure = error;
      request.unpipe(parser);
      if (request.complete || request.destroyed) finish();
      else request.resume(); // read and discard the rest, so the answer reaches the client
    };
    /** The client is gone (or stalled): nothing more will arrive, so stop the files being written. */
    const abandon = (error: DomainError): void => {
      fail(error);
      for (const stream of streaming) stream.destroy();
      finish();
    };

    request.setTimeout(limits.stallMs, () => {
      abandon(
        new DomainError(
          'malformed_request',
          `The upload stalled: nothing arrived for ${Math.round(limits.stallMs / 1000)} s. Send it again.`,
        ),
      );
      request.destroy();
    });

    parser.on('file', (field, stream, info) => {
      if (failure) return stream.resume();
      if (field !== FILE_FIELD) {
        stream.resume();
        return fail(invalidField(field, `is not a file field; send files as \`${FILE_FIELD}\``));
      }
      if (!info.filename) {
        stream.resume();
        return fail(
          new DomainError('validation_failed', 'A file part has no filename. Every file needs its name.', {
            errors: [{ field: FILE_FIELD, message: 'a part has no filename' }],
          }),
        );
      }
      if (files.length >= limits.maxFiles) {
        stream.resume();
        return fail(new DomainError('payload_too_large', `An upload may hold at most ${limits.maxFiles} files.`));
      }
      const file: ReceivedFile = {
        tempPath: join(folder, String(files.length + 1)),
        filename: info.filename,
        bytes: 0,
      };
      files.push(file);
      streaming.add(stream);
      stream.on('data', (chunk: Buffer) => {
        file.bytes += chunk.length;
        total += chunk.length;
        if (total > limits.maxBytes) {
          // Reading the rest only to discard it could take as long as the client cares to send:
          // answer now and close the connection after the answer.
          response.setHeader('Connection', 'close');
          abandon(tooLarge(limits.maxBytes));
        }
      });
      writes.push(
        pipeline(stream, createWriteStream(file.tempPath))
          .catch(() => undefined)
          .finally(() => streaming.delete(stream)),
      );
    });

    parser.on('field', (name, value, info) => {
      if (failure) return;
      if (info.valueTruncated) return fail(invalidField(name, `is longer than ${MAX_FIELD_BYTES} bytes`));
      if (name in fields) return fail(invalidField(name, 'is given more than once'));
      fields[name] = value;
    });

    parser.on('error', () =>
      fail(new DomainError('malformed_request', 'The multipart body is malformed or incomplete. Send it again.')),
    );

    function finish(): void {
      if (finished) return;
      finished = true;
      request.setTimeout(0); // the body is in; inspecting it may take longer than a stall
      void Promise.all(writes).then(() => {
        if (failure) return reject(failure);
        if (files.length === 0) {
          return reject(
            new DomainError('validation_failed', 'No files were sent. Add one or more `files` parts.', {
              errors: [{ field: FILE_FIELD, message: 'is required' }],
            }),
          );
        }
        const empty = files.find((f) => f.bytes === 0);
        if (empty) {
          return reject(
            new DomainError(
              'validation_failed',
              `${empty.filename} is empty (0 bytes). Upload the file with its content.`,
              {
                errors: [{ field: FILE_FIELD, message: `${empty.filename} is empty` }],
              },
            ),
          );
        }
        resolve({ files, fields });
      });
    }
    parser.on('close', () => {
      if (!failure) finish();
    });
    request.on('end', () => {
      if (failure) finish();
    });
    request.on('close', () => {
      if (!request.complete) abandon(new DomainError('malformed_request', 'The upload was interrupted.'));
    });
    request.pipe(parser);
  });
}

function tooLarge(maxBytes: number): DomainError {
  return new DomainError(
    'payload_too_large',
    `The upload is larger than the ${formatBytes(maxBytes)} limit. Split it into smaller uploads.`,
  );
}

function invalidField(field: string, message: string): DomainError {
  return new DomainError('validation_failed', `The form field ${field} ${message}.`, { errors: [{ field, message }] });
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}
