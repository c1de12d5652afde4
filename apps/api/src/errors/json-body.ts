import express, { type RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';

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

/** The body-parser error for a JSON body nested too deeply: a 400 of its own type. */
class TooDeep extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';
}

/**
 * The API's JSON body parser: at most 1 MB and 32 levels of nesting (checked on the bytes before
 * they are parsed, so a deeply nested body never reaches the parser's recursion); the raw bytes
 * are kept on the request for signature checks (Stripe's webhook). A request without a body (no
 * Content-Length nor Transfer-Encoding: most GETs) skips the parser, which would find nothing
 * to read either.
 */
export function jsonBodyParser(): RequestHandler {
  const parser = express.json({
    limit: MAX_JSON_BYTES,
    verify: (request: IncomingMessage & { rawBody?: Buffer }, _response, bytes) => {
      if (jsonDepth(bytes) > MAX_JSON_DEPTH) throw new TooDeep(`nested more than ${MAX_JSON_DEPTH} levels`);
      request.rawBody = bytes;
    },
  });
  return (request, response, next) => {
    const { headers } = request;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) next();
    else parser(request, response, next);
  };
}
