import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { freePort } from '@docconv/testing';
import { createKey, signup } from './support/accounts';
import { docconv } from './support/cli';
import { makePdf } from './support/fixtures';
import { checkoutCompletedEvent, deliverStripeEvent, startStripeMock, type StripeMock } from './support/stripe';
import { createTestApp, type TestApp } from './support/test-app';

/** The API on a port of its own, configured with the address it is reached at (PUBLIC_BASE_URL). */
async function listening(env: NodeJS.ProcessEnv): Promise<{ t: TestApp; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({}, { ...env, PUBLIC_BASE_URL: url });
  await t.app.listen(port, '127.0.0.1');
  return { t, url };
}

describe('docconv buy', () => {
  let stripeMock: StripeMock;
  let paid: { t: TestApp; url: string };
  let unpaid: { t: TestApp; url: string };
  beforeAll(async () => {
    stripeMock = await startStripeMock();
    paid = await listening({ ...process.env, ...stripeMock.env });
    unpaid = await listening({ ...process.env, STRIPE_SECRET_KEY: '' });
  });
  afterAll(async () => {
    await paid?.t.close();
    await unpaid?.t.close();
    await stripeMock?.close();
  });

  async function userOf(service: { t: TestApp; url: string }) {
    const user = await signup(service.t.http, 'cli-buyer');
    const key = await createKey(service.t.http, user);
    return { user, env: { ...process.env, DOCCONV_URL: service.url, DOCCONV_API_KEY: key.key } };
  }

  it('prints the Stripe page to pay on and what it buys; the paid checkout shows in the balance', async () => {
    const { user, env } = await userOf(paid);
    const result = await docconv(['buy', '15'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^https:\/\/checkout\.stripe\.com\/\S+\n$/);
    expect(result.stderr).toContain('$15.00 buys 15000 points ($15.00)');
    const sent = Object.fromEntries(stripeMock.calls.at(-1)!.form);
    expect(sent).toMatchObject({ client_reference_id: user.userId, 'line_items[0][price_data][unit_amount]': '1500' });

    // The session the CLI opened (stripe-mock's page address does not name it), paid.
    const [checkout] = await paid.t.app
      .get(DataSource)
      .query<{ session_id: string }[]>('SELECT session_id FROM checkouts WHERE user_id = $1', [user.userId]);
    const event = checkoutCompletedEvent(user.userId, 1500, checkout.session_id);
    await deliverStripeEvent(paid.t.http, event).expect(200);
    const balance = await docconv(['balance'], env);
    expect(balance.stdout).toBe('15000 points ($15.00)\n');
  });

  it('an amount out of bounds fails naming the bounds; a word is wrong usage', async () => {
    const { env } = await userOf(paid);
    const low = await docconv(['buy', '2'], env);
    expect(low.code).toBe(1);
    expect(low.stderr).toContain('from 5 to 500');
    const word = await docconv(['buy', 'ten'], env);
    expect(word.code).toBe(2);
    expect(word.stderr).toContain('<usd> must be a whole number');
  });

  it('fails saying payments are not configured where they are not', async () => {
    const { env } = await userOf(unpaid);
    const result = await docconv(['buy', '10'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Payments are not configured on this server');
  });

  it('a confirmation refused for want of credits names `docconv buy` where credits are sold, else the operator', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'docconv-cli-buy-'));
    try {
      await writeFile(join(folder, 'one.pdf'), await makePdf(['One page.']));
      const upload = ['upload', 'one.pdf', '--model', 'premium', '--confirm', '--yes'];
      const basic =
        'The basic model costs less (100 free pages left this month): upload the files again with --model basic.';

      const sold = await docconv(upload, (await userOf(paid)).env, folder);
      expect(sold.code).toBe(1);
      const soldJob = /^Job:\s+([0-9a-f-]{36})$/m.exec(sold.stdout)![1];
      expect(sold.stderr).toContain(
        `${basic}\nOr buy credits with \`docconv buy <usd>\` (it prints the page to pay on), ` +
          `then confirm the job again: \`docconv confirm ${soldJob} --yes\`.\n`,
      );

      const unsold = await docconv(upload, (await userOf(unpaid)).env, folder);
      expect(unsold.code).toBe(1);
      expect(unsold.stderr).toContain(`${basic}\nOr ask the service’s operator for points (it sells no credits).\n`);
      expect(unsold.stderr).not.toContain('docconv buy');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
