import { startChatServer, type ChatServer } from './support/chat-server';
import { makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { privateStack, waitForCapabilities } from './support/private-stack';

/** The page Markdown the worker sent: the user message's last part. */
const pageOf = (content: string) => content.slice(content.lastIndexOf('\n\n') + 2);

describe('layout refinement by a language model (local chat-completions server)', () => {
  let chat: ChatServer;
  let mode: 'edit' | 'garbage' = 'edit';
  const { stack, start } = privateStack('refine');

  beforeAll(async () => {
    chat = await startChatServer(({ messages }) => {
      const page = pageOf(messages[messages.length - 1].content);
      if (mode === 'garbage') return { content: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.' };
      // The "model" turns the page's first line into a heading and marks that it saw the prompt.
      return { content: `# ${page.trim().replace(/\n\n/, '\n\n')}` };
    });
    Object.assign(stack.env, { LLM_BASE_URL: chat.url, LLM_API_KEY: 'sk-test-refine', LLM_MODEL: 'layout-test' });
    await start();
    // The API learns from the worker's report that refinement is on.
    await waitForCapabilities(stack, (c) => c.refinement.available === true);
  }, 60_000);
  afterAll(() => chat.close());

  async function refine(pages: string[], fields: Record<string, string> = {}) {
    const pdf = await makePdf(pages);
    const res = await upload(stack.t.http, stack.key.key, [{ name: 'memo.pdf', content: pdf }], {
      ocr_model: 'premium', // no free pages: the sum below is the whole price
      docling_refinement: 'true',
      ...fields,
    });
    expect(res.status).toBe(201);
    const confirmed = await stack.t.http
      .post(`/api/v1/jobs/${res.body.job_id}/confirm`)
      .set('X-API-Key', stack.key.key)
      .expect(200);
    const job = await waitForJob(stack.t.http, stack.key.key, res.body.job_id as string, ['done', 'error'], 60_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    const markdown = (
      await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', stack.key.key)
    ).text;
    const report = (
      await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/pages`).set('X-API-Key', stack.key.key).expect(200)
    ).body as { pages: { source: string; refined?: boolean; notes?: string[] }[] };
    return { preview: res.body, confirmed: confirmed.body, job, markdown, report: report.pages };
  }

  it("sends each page with the prompt and columns, keeps the server's edits, and charges 3 per page", async () => {
    mode = 'edit';
    const before = chat.requests.length;
    const { preview, job, markdown, report } = await refine(
      ['Quarterly memo for the board of directors.', 'Second page of the memo with the figures.'],
      { prompt: 'Use sentence case for headings.', columns: 'Region,Sales' },
    );
    expect(preview).toMatchObject({ docling_refinement: true, docling_refinement_pages: 2 });
    // premium model: 30 per page; refinement: 3 per page (spec 4.3).
    expect(preview.cost.points).toBe(2 * 30 + 2 * 3);
    expect(job.cost_points).toBe(66);

    const sent = chat.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0].model).toBe('layout-test');
    expect(sent[0].headers.authorization).toBe('Bearer sk-test-refine');
    expect(sent[0].messages[1].content).toContain('Use sentence case for headings.');
    expect(sent[0].messages[1].content).toContain('"Region", "Sales"');
    expect(sent[0].messages[1].content).toContain('Quarterly memo for the board of directors.');
    expect(sent[1].messages[1].content).toContain('Second page of the memo');

    expect(markdown).toContain('# Quarterly memo for the board of directors.');
    expect(markdown).toContain('# Second page of the memo with the figures.');
    expect(report.filter((p) => p.source === 'refinement').map((p) => p.refined)).toEqual([true, true]);
  });

  it('keeps a page unrefined when the server answers with text that is not the page, and says so', async () => {
    mode = 'garbage';
    const { markdown, report } = await refine(['The delivery arrives on Tuesday at the north gate.']);
    expect(markdown).toContain('The delivery arrives on Tuesday at the north gate.');
    expect(markdown).not.toContain('Lorem ipsum');
    expect(markdown).toMatch(/<!-- Kept page 1 of memo\.pdf as extracted because .+ -->/);
    const refinement = report.find((p) => p.source === 'refinement');
    expect(refinement).toMatchObject({ refined: false });
    expect(refinement?.notes?.[0]).toMatch(/Kept page 1 of memo\.pdf as extracted/);
  });
});
