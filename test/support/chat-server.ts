import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '@docconv/refine';

/** One chat-completion request as the server received it. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Lower-cased header names, as Node gives them (`authorization`, `content-type`…). */
  headers: IncomingHttpHeaders;
  /** The whole JSON body, for members other than `model` and `messages` (e.g. `temperature`). */
  body: Record<string, unknown>;
}

/**
 * What to answer. By default a 200 chat.completion whose message is `content`. A status of 400
 * or more sends OpenAI's error shape with `content` as its message instead. `body` is sent as
 * JSON, and `text` as it is, in place of either. `delayMs` holds the answer back (timeouts).
 */
export interface ChatReply {
  status?: number;
  /** The assistant's text; `null` sends a message without text (`content: null`). */
  content?: string | null;
  body?: unknown;
  /** Sent as it is, as `text/plain` unless `headers` say otherwise (e.g. a proxy's HTML page). */
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Default `stop`. */
  finishReason?: string;
}

export type ChatResponder = (request: ChatRequest) => ChatReply | Promise<ChatReply>;

export interface ChatServer {
  /** The API root to give a client, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Every chat-completion request received, oldest first. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

export interface ChatServerOptions {
  /** Interface to listen on. Default `127.0.0.1`; use `0.0.0.0` for a worker in a container. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
}

/**
 * A local stand-in for an OpenAI-compatible chat-completions API (`POST /v1/chat/completions`),
 * for tests in this process or for a worker process pointed at `url`. Each request is recorded
 * and answered as `respond` says; anything else gets the 404 or 400 a real server would send.
 */
export async function startChatServer(respond: ChatResponder, options: ChatServerOptions = {}): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, 500, `The test chat server failed: ${String(error)}`));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendError(res, 404, `Unknown request: ${req.method} ${req.url}`, 'not_found');
    }
    const body = parseJson(await readBody(req));
    if (!isChatBody(body)) return sendError(res, 400, 'The body must be JSON with `model` and `messages`.');
    const request: ChatRequest = { model: body.model, messages: body.messages, headers: req.headers, body };
    requests.push(request);
    const reply = await respond(request);
    await holdBack(reply.delayMs ?? 0, pending);
    if (!res.destroyed) sendReply(res, request, reply);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/v1`,
    requests,
    close: () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function sendReply(res: ServerResponse, request: ChatRequest, reply: ChatReply): void {
  const status = reply.status ?? 200;
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if (reply.text !== undefined) return sendText(res, status, reply.text);
  if (reply.body !== undefined) return sendJson(res, status, reply.body);
  if (status >= 400) return sendError(res, status, reply.content ?? `Error ${status}`);
  sendJson(res, status, completion(request, reply.content === undefined ? '' : reply.content, reply));
}

/** A chat.completion body as OpenAI sends it; token counts are estimated at four characters a token. */
function completion(request: ChatRequest, content: string | null, reply: ChatReply): unknown {
  const promptTokens = Math.ceil(request.messages.reduce((sum, m) => sum + String(m.content).length, 0) / 4);
  const completionTokens = content === null ? 0 : Math.ceil(content.length / 4);
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: reply.finishReason ?? 'stop' }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

/** OpenAI's error shape: `{ error: { message, type, param, code } }`. */
function sendError(res: ServerResponse, status: number, message: string, code: string | null = null): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, {
    error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code },
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.writeHead(status);
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isChatBody(body: unknown): body is Record<string, unknown> & { model: string; messages: ChatMessage[] } {
  if (typeof body !== 'object' || body === null) return false;
  const { model, messages } = body as Record<string, unknown>;
  return typeof model === 'string' && Array.isArray(messages);
}

/** Waits `ms`; `close()` clears the timer, so a held-back answer never keeps the server open. */
function holdBack(ms: number, pending: Set<NodeJS.Timeout>): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(timer);
      resolve();
    }, ms);
    pending.add(timer);
  });
}
