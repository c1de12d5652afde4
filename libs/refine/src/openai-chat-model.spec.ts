import { startChatServer, type ChatReply, type ChatRequest, type ChatServer } from '../../../test/support/chat-server';
import { LanguageModelError } from './language-model-error';
import { OpenAiChatModel, type OpenAiChatModelOptions } from './openai-chat-model';

const API_KEY = 'sk-test-0123456789abcdef';
const MESSAGES = [
  { role: 'system' as const, content: 'Answer briefly.' },
  { role: 'user' as const, content: 'Say hello.' },
];

describe('OpenAiChatModel', () => {
  let server: ChatServer;
  let respond: (request: ChatRequest) => ChatReply;

  beforeAll(async () => {
    server = await startChatServer((request) => respond(request));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  function model(options: Partial<OpenAiChatModelOptions> = {}): OpenAiChatModel {
    return new OpenAiChatModel({
      baseUrl: server.url,
      apiKey: API_KEY,
      model: 'test-model',
      retryDelayMs: 5,
      maxRetryDelayMs: 50,
      ...options,
    });
  }

  async function failure(promise: Promise<unknown>): Promise<LanguageModelError> {
    const error: unknown = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LanguageModelError);
    return error as LanguageModelError;
  }

  it("posts the conversation with the model, the bearer key and temperature 0, and returns the assistant's text", async () => {
    respond = () => ({ content: 'Hello.' });

    await expect(model({ baseUrl: `${server.url}/` }).complete(MESSAGES)).resolves.toBe('Hello.');

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.model).toBe('test-model');
    expect(request.messages).toEqual(MESSAGES);
    expect(request.body.temperature).toBe(0);
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('retries after a 503 and returns the next answer', async () => {
    respond = () =>
      server.requests.length === 1 ? { status: 503, content: 'Overloaded' } : { content: 'Second try.' };

    await expect(model().complete(MESSAGES)).resolves.toBe('Second try.');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after maxAttempts, naming the status and the number of attempts', async () => {
    respond = () => ({ status: 502, content: 'Bad gateway' });

    const error = await failure(model({ maxAttempts: 3 }).complete(MESSAGES));

    expect(server.requests).toHaveLength(3);
    expect(error.status).toBe(502);
    expect(error.message).toContain('answered 502: Bad gateway');
    expect(error.message).toContain('Gave up after 3 attempts');
  });

  it("waits the server's Retry-After, capped by maxRetryDelayMs", async () => {
    respond = () =>
      server.requests.length === 1
        ? { status: 429, content: 'Slow down', headers: { 'Retry-After': '1' } }
        : { content: 'Done.' };
    const started = Date.now();

    await expect(model({ retryDelayMs: 1, maxRetryDelayMs: 200 }).complete(MESSAGES)).resolves.toBe('Done.');

    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(190);
    expect(waited).toBeLessThan(900);
    expect(server.requests).toHaveLength(2);
  });

  it('fails at once on a 401, quoting the server and pointing at the key without showing it', async () => {
    respond = () => ({ status: 401, content: `Incorrect API key provided: ${API_KEY}.` });

    const error = await failure(model().complete(MESSAGES));

    expect(server.requests).toHaveLength(1);
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.code).toBe('refinement_unavailable');
    expect(error.message).toMatch(
      /answered 401: Incorrect API key provided: \[redacted\]\. Check the language model API key\./,
    );
    expect(error.message).not.toContain(API_KEY);
    expect(error.detail).not.toContain(API_KEY);
  });

  it('fails at once on a 400 without an error message, naming the status', async () => {
    respond = () => ({ status: 400, text: '<html>Bad Request</html>' });

    const error = await failure(model().complete(MESSAGES));

    expect(server.requests).toHaveLength(1);
    expect(error.detail).toBe('answered 400');
  });

  it('times out an attempt that takes longer than timeoutMs', async () => {
    respond = () => ({ content: 'Too late.', delayMs: 2_000 });
    const started = Date.now();

    const error = await failure(model({ timeoutMs: 100, maxAttempts: 1 }).complete(MESSAGES));

    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.detail).toBe('did not answer within 100 ms');
    expect(error.retryable).toBe(true);
  });

  it('retries a server that cannot be reached, then says so', async () => {
    const gone = await startChatServer(() => ({ content: 'unused' }));
    await gone.close();

    const error = await failure(model({ baseUrl: gone.url, maxAttempts: 2 }).complete(MESSAGES));

    expect(error.detail).toBe('could not be reached (ECONNREFUSED) (2 attempts)');
    expect(error.message).toContain('Check the base URL');
  });

  it('rejects an answer whose message has no text, with the finish reason', async () => {
    respond = () => ({ content: null, finishReason: 'content_filter' });

    const error = await failure(model().complete(MESSAGES));

    expect(server.requests).toHaveLength(1);
    expect(error.detail).toBe('answered without text (finish_reason: content_filter)');
  });

  it('rejects a 200 answer that is not JSON, pointing at the base URL', async () => {
    respond = () => ({ text: '<html><body>Welcome</body></html>', headers: { 'Content-Type': 'text/html' } });

    const error = await failure(model().complete(MESSAGES));

    expect(error.detail).toBe('answered with a body that is not JSON');
    expect(error.message).toContain('OpenAI-compatible API');
  });

  it('stops at once when the caller cancels, without retrying', async () => {
    respond = () => ({ content: 'Never seen.', delayMs: 2_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const error = await failure(model().complete(MESSAGES, { signal: controller.signal }));

    expect(error.detail).toBe('was cancelled');
    expect(server.requests).toHaveLength(1);
  });
});
