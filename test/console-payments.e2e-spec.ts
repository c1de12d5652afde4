import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { freePort, REPO_ROOT, TEST_OUTPUT } from '@docconv/testing';
import { signup } from './support/accounts';
import {
  checkoutCompletedEvent,
  checkoutSessionEvent,
  deliverStripeEvent,
  startStripeMock,
  type StripeMock,
} from './support/stripe';
import { launchChromium } from './support/chromium';
import { createTestApp, uniqueEmail, type TestApp } from './support/test-app';

const CONSOLE_DIST = join(REPO_ROOT, 'dist', 'console');
const SHOTS = join(TEST_OUTPUT, 'console');

/** The API serving the built console on a port of its own, with the environment given and that address as its public URL. */
async function serveConsole(env: NodeJS.ProcessEnv): Promise<{ t: TestApp; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({}, { ...env, CONSOLE_DIR: CONSOLE_DIST, PUBLIC_BASE_URL: url });
  await t.app.listen(port, '127.0.0.1');
  return { t, url };
}

describe('buying credits in the web console', () => {
  let browser: Browser;
  let stripeMock: StripeMock;
  let paid: { t: TestApp; url: string };
  let unpaid: { t: TestApp; url: string };

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${CONSOLE_DIST} has no index.html: run \`npm run build\`, which builds the console.`);
    }
    stripeMock = await startStripeMock();
    paid = await serveConsole({ ...process.env, ...stripeMock.env });
    unpaid = await serveConsole({ ...process.env, STRIPE_SECRET_KEY: '' });
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await paid?.t.close();
    await unpaid?.t.close();
    await stripeMock?.close();
  });

  async function open(url: string, options: BrowserContextOptions): Promise<Page & { problems: string[] }> {
    const context = await browser.newContext(options);
    const page = Object.assign(await context.newPage(), { problems: [] as string[] });
    page.on('pageerror', (error) => page.problems.push(error.message));
    await page.goto(`${url}/`);
    return page;
  }

  /** Signs up in the console and opens the account page; returns the new user's id. */
  async function signUpAndOpenAccount(page: Page, t: TestApp): Promise<string> {
    const email = uniqueEmail('console-buyer');
    await page.getByTestId('mode-signup').click();
    await page.locator('#email').fill(email);
    await page.locator('#password').fill('a long enough password');
    await page.locator('form button[type=submit]').click();
    await page.locator('a[href="#/account"]').click();
    await page.getByTestId('balance').waitFor();
    const [user] = await t.app
      .get(DataSource)
      .query<{ id: string }[]>('SELECT id FROM users WHERE email = $1', [email]);
    return user.id;
  }

  it('shows the balance and free pages, sells credits through Stripe Checkout, and shows them once the webhook credits the payment', async () => {
    const page = await open(paid.url, { viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const userId = await signUpAndOpenAccount(page, paid.t);
    await expect(page.getByTestId('balance').getAttribute('data-points')).resolves.toBe('0');
    await expect(page.getByTestId('free-pages').getAttribute('data-left')).resolves.toBe('100');
    await expect(page.getByTestId('free-pages').innerText()).resolves.toContain('100 of 100');
    await page.getByText('No payments yet.').waitFor();

    // Stripe's hosted page is out of reach here: a small page stands in for it.
    const stripePages: string[] = [];
    await page.route('https://checkout.stripe.com/**', async (route) => {
      stripePages.push(route.request().url());
      await route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Stripe Checkout</title><h1>Stripe Checkout (stand-in)</h1><p>Pay $12.00</p>',
      });
    });

    await page.getByTestId('buy-credits').click();
    await page.getByTestId('buy-amount-25').check();
    await expect(page.getByTestId('buy-points').getAttribute('data-points')).resolves.toBe('25000');
    await page.getByTestId('buy-amount-custom').check();
    await page.locator('#buy-custom').fill('3');
    await expect(page.getByTestId('buy-continue').isDisabled()).resolves.toBe(true);
    await expect(page.locator('.buy .warning').innerText()).resolves.toContain('from 5 to 500');
    await page.locator('#buy-custom').fill('12');
    await expect(page.getByTestId('buy-points').getAttribute('data-points')).resolves.toBe('12000');
    await expect(page.getByTestId('buy-points').innerText()).resolves.toContain('12,000 points');
    await page.screenshot({ path: join(SHOTS, 'buy-credits.png'), fullPage: true });

    // The API's answer passes through unchanged; the test keeps a copy to know the session it opened.
    const answers: { id: string; url: string; points: number; success_url: string }[] = [];
    await page.route('**/api/v1/payments/checkout', async (route) => {
      const response = await route.fetch();
      answers.push((await response.json()) as (typeof answers)[number]);
      await route.fulfill({ response });
    });
    await page.getByTestId('buy-continue').click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
    expect(answers).toHaveLength(1);
    const [checkout] = answers;
    expect(stripePages).toEqual([checkout.url]);
    expect(checkout).toMatchObject({ points: 12_000, success_url: `${paid.url}/?checkout=success#/account` });
    await page.screenshot({ path: join(SHOTS, 'buy-credits-stripe.png'), fullPage: true });

    // The buyer comes back before Stripe's webhook has arrived: the page says it is confirming.
    await page.goto(checkout.success_url);
    const status = page.getByTestId('checkout-status');
    await page.locator('[data-testid=checkout-status][data-state=confirming]').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.screenshot({ path: join(SHOTS, 'buy-credits-confirming.png'), fullPage: true });

    const event = checkoutCompletedEvent(userId, 1200, checkout.id);
    const delivered = await deliverStripeEvent(paid.t.http, event).expect(200);
    expect(delivered.body.outcome).toBe('recorded');

    await page.locator('[data-testid=checkout-status][data-state=confirmed]').waitFor({ timeout: 30_000 });
    await expect(status.innerText()).resolves.toContain('12,000 points were added');
    await page.locator('[data-testid=balance][data-points="12000"]').waitFor();
    const row = page.getByTestId('payment-row');
    await expect(row.count()).resolves.toBe(1);
    await expect(row.getAttribute('data-points')).resolves.toBe('12000');
    await expect(row.innerText()).resolves.toContain('12.00 USD');
    await page.screenshot({ path: join(SHOTS, 'buy-credits-confirmed.png'), fullPage: true });
    expect(page.problems).toEqual([]);
  });

  it('a bank payment is shown pending when the buyer comes back, and credited once Stripe reports it paid', async () => {
    const page = await open(paid.url, { viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const userId = await signUpAndOpenAccount(page, paid.t);
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Stripe Checkout</title>' }),
    );
    const answers: { id: string; success_url: string }[] = [];
    await page.route('**/api/v1/payments/checkout', async (route) => {
      const response = await route.fetch();
      answers.push((await response.json()) as (typeof answers)[number]);
      await route.fulfill({ response });
    });
    await page.getByTestId('buy-credits').click();
    await page.getByTestId('buy-amount-25').check();
    await page.getByTestId('buy-continue').click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
    const [checkout] = answers;

    // The buyer chose a bank debit: Stripe completes the session unpaid, and reports it paid days later.
    await page.goto(checkout.success_url);
    const unpaid = checkoutSessionEvent(userId, 2500, checkout.id, { paymentStatus: 'unpaid' });
    await deliverStripeEvent(paid.t.http, unpaid).expect(200);
    await page.locator('[data-testid=checkout-status][data-state=pending]').waitFor({ timeout: 30_000 });
    const status = page.getByTestId('checkout-status');
    await expect(status.innerText()).resolves.toContain('25,000 points are added as soon as it clears');
    const row = page.locator('[data-testid=payment-row][data-status=pending]');
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain('Pending');
    await expect(row.getAttribute('data-points')).resolves.toBe('0');
    await expect(page.getByTestId('balance').getAttribute('data-points')).resolves.toBe('0');
    await page.screenshot({ path: join(SHOTS, 'buy-credits-pending.png'), fullPage: true });

    const succeeded = checkoutSessionEvent(userId, 2500, checkout.id, {
      type: 'checkout.session.async_payment_succeeded',
    });
    await deliverStripeEvent(paid.t.http, succeeded).expect(200);
    await page.locator('[data-testid=checkout-status][data-state=confirmed]').waitFor({ timeout: 30_000 });
    await expect(status.innerText()).resolves.toContain('25,000 points were added');
    await page.locator('[data-testid=balance][data-points="25000"]').waitFor();
    await page.locator('[data-testid=payment-row][data-status=done]').waitFor();
    await expect(page.getByTestId('payment-row').count()).resolves.toBe(1);
    await expect(page.getByTestId('payment-row').innerText()).resolves.toContain('Paid');
    expect(page.problems).toEqual([]);
  });

  it('lists pending and failed payments in Korean', async () => {
    const user = await signup(paid.t.http, 'console-ko');
    const buy = async (usd: number) =>
      (
        await paid.t.http
          .post('/api/v1/payments/checkout')
          .set('Authorization', `Bearer ${user.jwt}`)
          .send({ usd })
          .expect(200)
      ).body.id as string;
    const failing = await buy(10);
    for (const type of ['checkout.session.completed', 'checkout.session.async_payment_failed']) {
      const event = checkoutSessionEvent(user.userId, 1000, failing, { type, paymentStatus: 'unpaid' });
      await deliverStripeEvent(paid.t.http, event).expect(200);
    }
    const waiting = await buy(20);
    const event = checkoutSessionEvent(user.userId, 2000, waiting, { paymentStatus: 'unpaid' });
    await deliverStripeEvent(paid.t.http, event).expect(200);

    const page = await open(paid.url, { viewport: { width: 390, height: 844 }, locale: 'ko-KR' });
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.locator('form button[type=submit]').click();
    await page.locator('a[href="#/account"]').click();
    await page.locator('[data-testid=payment-row][data-status=failed]').waitFor();
    await expect(page.locator('[data-testid=payment-row][data-status=failed]').innerText()).resolves.toContain('실패');
    await expect(page.locator('[data-testid=payment-row][data-status=pending]').innerText()).resolves.toContain(
      '대기 중',
    );
    await page.getByText('대기 중인 결제는 은행에서 확인되는 즉시 포인트가 추가됩니다.').waitFor();
    await page.screenshot({ path: join(SHOTS, 'account-payments-ko.png'), fullPage: true });
    expect(page.problems).toEqual([]);
  });

  it('offers no purchase where Stripe is not configured, in Korean too', async () => {
    const page = await open(unpaid.url, { viewport: { width: 390, height: 844 }, locale: 'ko-KR' });
    await signUpAndOpenAccount(page, unpaid.t);
    await page.getByText('이 서버에서는 크레딧을 구매할 수 없습니다').waitFor();
    await expect(page.getByTestId('buy-credits').count()).resolves.toBe(0);
    await expect(page.getByTestId('free-pages').innerText()).resolves.toContain('100쪽 중 100쪽');
    await page.screenshot({ path: join(SHOTS, 'account-no-payments-ko.png'), fullPage: true });
    expect(page.problems).toEqual([]);
  });
});
