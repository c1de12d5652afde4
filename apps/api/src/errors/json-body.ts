import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Deeper than any body of ours nests (three levels at most), shallow enough for any parser. */
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_BYTES = 1024 * 1024;

const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/** How deep a JSON text nests arrays and objects, read from its bytes without parsing it. */
export function jsonDepth(bytes: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // a backslash escapes the next character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (OPEN.has(byte)) deepest = Math.max(deepest, ++depth);
    else if (CLOSE.has(byte)) depth--;
  }
  return deepest;
}

/** A JSON body's charset, when its Content-Type names one. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** Where a JSON text's first character may be: only an object or an array is a request body. */
const FIRST_CHARACTER = /^[ \t\n\r]*(.)/;

/**
 * The API's request bodies. JSON: at most 1 MB (Fastify's body limit, a 413) and 32 levels of
 * nesting (checked on the bytes before they are parsed, so a deeply nested body never reaches
 * the parser's recursion), UTF-8, an object or an array; the raw bytes are kept on the request
 * for signature checks (Stripe's webhook). An empty JSON body is an empty object. Every other
 * body is left unread here: uploads are streamed by their route (see `multipart.ts`), and no
 * other route reads one, so the route's own checks answer as they would without a body.
 */
export function registerBodyParsers(server: FastifyInstance): void {
  server.removeAllContentTypeParsers();
  server.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: MAX_JSON_BYTES },
    (request: FastifyRequest & { rawBody?: Buffer }, bytes: Buffer | string, done) => {
      try {
        done(null, parseJsonBody(request, bytes as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  server.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

function parseJsonBody(request: FastifyRequest & { rawBody?: Buffer }, bytes: Buffer): unknown {
  const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1].toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw new UnsupportedMediaTypeException(`The request body is in ${charset}; send it as UTF-8.`);
  request.rawBody = bytes;
  if (bytes.length === 0) return {};
  if (jsonDepth(bytes) > MAX_JSON_DEPTH)
    throw new BadRequestException(
      `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep. Send a flatter body.`,
    );
  const text = bytes.toString('utf8');
  const first = FIRST_CHARACTER.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw notJson();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw notJson();
  }
}

function notJson(): BadRequestException {
  return new BadRequestException('The request body is not valid JSON. Check the syntax and send it again.');
}
