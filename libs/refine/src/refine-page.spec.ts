import { startChatServer, type ChatReply, type ChatRequest, type ChatServer } from '../../../test/support/chat-server';
import type { LanguageModel } from './language-model';
import { OpenAiChatModel } from './openai-chat-model';
import { refinePage, unwrapAnswer } from './refine-page';
import { REFINE_SYSTEM_PROMPT, type RefineInput } from './refine-prompt';

const API_KEY = 'sk-refine-test-key';

/** A page as extraction leaves it: a sentence broken across lines and a table flattened to lines. */
const PAGE = [
  'Quarterly report',
  '',
  'Sales grew in every region this quarter, led by the',
  'northern stores and the new online shop.',
  '',
  'Region Revenue',
  'North 1,200',
  'South 950',
  '',
].join('\n');

/** The same page, refined: a heading, one joined paragraph, a table with the user's columns. */
const REFINED = [
  '# Quarterly report',
  '',
  'Sales grew in every region this quarter, led by the northern stores and the new online shop.',
  '',
  '| Sales region | Revenue (USD) |',
  '| --- | --- |',
  '| North | 1,200 |',
  '| South | 950 |',
].join('\n');

const INPUT: RefineInput = {
  markdown: PAGE,
  prompt: 'Amounts are in US dollars.',
  columns: ['Sales region', 'Revenue (USD)'],
  pageLabel: 'page 4',
};

describe('refinePage', () => {
  let server: ChatServer;
  let respond: (request: ChatRequest) => ChatReply;
  let model: OpenAiChatModel;

  beforeAll(async () => {
    server = await startChatServer((request) => respond(request));
    model = new OpenAiChatModel({
      baseUrl: server.url,
      apiKey: API_KEY,
      model: 'refiner-1',
      timeoutMs: 200,
      maxAttempts: 2,
      retryDelayMs: 5,
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it("returns the model's edits and sends it the page, the prompt and the columns", async () => {
    respond = () => ({ content: REFINED });

    const outcome = await refinePage(model, INPUT);

    expect(outcome).toEqual({ markdown: `${REFINED}\n`, refined: true });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.model).toBe('refiner-1');
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(request.messages[0].content).toBe(REFINE_SYSTEM_PROMPT);
    const user = request.messages[1].content;
    expect(user).toContain('Amounts are in US dollars.');
    expect(user).toContain('"Sales region", "Revenue (USD)"');
    expect(user).toContain('Markdown of page 4:');
    expect(user.endsWith(PAGE)).toBe(true);
  });

  it('leaves the prompt and columns out of the request when the user gave none', async () => {
    respond = () => ({ content: PAGE });

    await refinePage(model, { ...INPUT, prompt: '  ', columns: null });

    const user = server.requests[0].messages[1].content;
    expect(user).not.toContain('User instructions');
    expect(user).not.toContain('Table columns');
    expect(user.startsWith('Markdown of page 4:')).toBe(true);
  });

  it('unwraps an answer fenced as markdown', async () => {
    respond = () => ({ content: `\`\`\`markdown\n${REFINED}\n\`\`\`` });

    const outcome = await refinePage(model, INPUT);

    expect(outcome).toEqual({ markdown: `${REFINED}\n`, refined: true });
  });

  it('retries a 503 and uses the answer that follows', async () => {
    respond = () => (server.requests.length === 1 ? { status: 503 } : { content: REFINED });

    const outcome = await refinePage(model, INPUT);

    expect(outcome.refined).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('keeps the page when the answer is empty', async () => {
    respond = () => ({ content: '  \n' });

    await expect(refinePage(model, INPUT)).resolves.toEqual({
      markdown: PAGE,
      refined: false,
      note: "Kept page 4 as extracted because the language model's answer was empty.",
    });
  });

  it('keeps the page when the answer drops most of its text', async () => {
    respond = () => ({ content: '# Quarterly report\n\nSales grew in every region.' });

    const outcome = await refinePage(model, INPUT);

    expect(outcome.markdown).toBe(PAGE);
    expect(outcome.refined).toBe(false);
    expect(outcome.note).toMatch(/^Kept page 4 as extracted because the language model's answer left out \d+% of/);
  });

  it('keeps the page when the answer is a summary in other words', async () => {
    respond = () => ({ content: 'Revenue rose across all areas, mostly thanks to northern shops and e-commerce.' });

    const outcome = await refinePage(model, INPUT);

    expect(outcome).toMatchObject({ markdown: PAGE, refined: false });
    expect(outcome.note).toContain('left out');
  });

  it('keeps the page when the answer invents text that is not on it', async () => {
    const invented =
      'Analysts expect the western stores to open next spring, with hiring planned across three new cities and ' +
      'a loyalty programme launching before the holidays.';
    respond = () => ({ content: `${REFINED}\n\n${invented}` });

    const outcome = await refinePage(model, INPUT);

    expect(outcome).toMatchObject({ markdown: PAGE, refined: false });
    expect(outcome.note).toMatch(
      /^Kept page 4 as extracted because \d+% of the words in the language model's answer are not on the page\.$/,
    );
  });

  it('keeps the page when the call times out on every attempt', async () => {
    respond = () => ({ content: REFINED, delayMs: 1_000 });

    const outcome = await refinePage(model, INPUT);

    expect(outcome).toEqual({
      markdown: PAGE,
      refined: false,
      note: 'Kept page 4 as extracted because the language model did not answer within 200 ms (2 attempts).',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('keeps the page, naming the status, when the key is refused', async () => {
    respond = () => ({ status: 401, content: 'Invalid API key.' });

    const outcome = await refinePage(model, INPUT);

    expect(outcome.note).toBe('Kept page 4 as extracted because the language model answered 401: Invalid API key.');
    expect(outcome.markdown).toBe(PAGE);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the page when the answer is not text', async () => {
    const odd: LanguageModel = { name: 'odd', complete: async () => ({ text: REFINED }) as unknown as string };

    const outcome = await refinePage(odd, INPUT);

    expect(outcome).toEqual({
      markdown: PAGE,
      refined: false,
      note: "Kept page 4 as extracted because the language model's answer was not text.",
    });
  });

  it('returns a page without text as it is, without calling the model', async () => {
    respond = () => ({ content: 'Should not be asked.' });

    for (const markdown of ['', '  \n\n', '---\n\n| | |\n| --- | --- |\n']) {
      const outcome = await refinePage(model, { ...INPUT, markdown });
      expect(outcome).toMatchObject({ markdown, refined: false });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('rejects when the caller cancels, rather than keeping the page', async () => {
    respond = () => ({ content: REFINED, delayMs: 150 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);

    await expect(refinePage(model, INPUT, { signal: controller.signal })).rejects.toMatchObject({
      detail: 'was cancelled',
    });
  });
});

describe('unwrapAnswer', () => {
  it('removes an untagged fence around the whole answer', () => {
    expect(unwrapAnswer('```\n# Title\n\nText\n```\n', '# Title\nText')).toBe('# Title\n\nText');
  });

  it('keeps the fence of a page that is itself one code block', () => {
    const code = '```\nconst a = 1;\n```';
    expect(unwrapAnswer(code, code)).toBe(code);
  });

  it('keeps a fence in other languages and fences inside the page', () => {
    expect(unwrapAnswer('```json\n{"a": 1}\n```', '{"a": 1}')).toBe('```json\n{"a": 1}\n```');
    const inner = 'Intro\n\n```js\nx();\n```\n\nOutro';
    expect(unwrapAnswer(inner, inner)).toBe(inner);
  });

  it('drops a reasoning block before the answer', () => {
    expect(unwrapAnswer('<think>The table needs headers.</think>\n```md\n# Title\n```', '# Title')).toBe('# Title');
  });
});
