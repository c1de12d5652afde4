import { formatUsd, type DocconvClient, type Payment } from '@docconv/client';
import { useEffect, useState } from 'preact/hooks';
import { accountClient, publicClient } from '../api';
import { BuyCredits, PENDING_CHECKOUT_KEY, type PendingCheckout } from '../components/buy-credits';
import { Problem } from '../components/problem';
import { UsageChart } from '../components/usage-chart';
import { count, dateTime } from '../format';
import { currentLanguage, t, tn } from '../i18n';
import type { Session } from '../session';
import { useAsync } from '../use-async';
import { DataTable } from '../components/data-table';
import { TransactionDescription } from '../components/transaction-description';
import { TRANSACTION_TYPES } from '../transactions';

/** Where a trip to Stripe's checkout page stands once the buyer is back. */
type CheckoutReturn =
  | { state: 'confirming' }
  | { state: 'confirmed'; points: number }
  /** Paid with a method that clears later (a bank debit or transfer): credited when Stripe reports it paid. */
  | { state: 'pending'; points: number | null }
  | { state: 'failed' }
  | { state: 'unconfirmed' }
  | { state: 'cancelled' };

const POLLS = 15;
const POLL_INTERVAL_MS = 2000;

/** `?checkout=success|cancelled`, which Stripe's page sends the buyer back with, read once and removed from the address. */
function readCheckoutReturn(): CheckoutReturn | null {
  const value = new URLSearchParams(window.location.search).get('checkout');
  if (value !== 'success' && value !== 'cancelled') return null;
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.hash}`);
  if (value === 'cancelled') sessionStorage.removeItem(PENDING_CHECKOUT_KEY);
  return value === 'success' ? { state: 'confirming' } : { state: 'cancelled' };
}

function readPending(): PendingCheckout | null {
  try {
    return JSON.parse(sessionStorage.getItem(PENDING_CHECKOUT_KEY) ?? 'null') as PendingCheckout | null;
  } catch {
    return null;
  }
}

/** The purchase among `payments`: one not listed before leaving for Stripe (or, without that list, one made in the last half hour). */
function purchaseIn(payments: Payment[], pending: PendingCheckout | null): Payment | undefined {
  return payments.find((p) =>
    pending ? !pending.paymentIds.includes(p.id) : Date.now() - Date.parse(`${p.created_at}Z`) < 30 * 60_000,
  );
}

const PAYMENT_STATUS_CLASS: Record<string, string | undefined> = {
  done: 'positive',
  failed: 'negative',
  pending: 'muted',
};

/** A payment's status in the reader's language (a status this console does not know is shown as sent). */
function paymentStatus(status: string): string {
  switch (status) {
    case 'done':
      return t('payment.done');
    case 'pending':
      return t('payment.pending');
    case 'failed':
      return t('payment.failed');
    case 'refunded':
      return t('payment.refunded');
    default:
      return status;
  }
}

/** A wire timestamp (UTC without an offset) as a date in UTC, e.g. "Jan 1, 2027". */
function utcDate(iso: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${iso}Z`),
  );
}

/**
 * After Stripe's page: polls the payments a few times until the webhook has recorded the purchase
 * and then until it is credited (a delayed payment stays pending, possibly for days).
 */
function useCheckoutReturn(client: DocconvClient, onRecorded: () => void): CheckoutReturn | null {
  const [returned, setReturned] = useState(readCheckoutReturn);
  const watching = returned?.state === 'confirming' || returned?.state === 'pending';
  useEffect(() => {
    if (!watching) return;
    const pending = readPending();
    let polls = 0;
    /** Whether the purchase is recorded pending: polling goes on for its success, without saying it is unconfirmed. */
    let waiting = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const poll = async () => {
      polls += 1;
      const purchase = await client.getPayments(20).then(
        (payments) => purchaseIn(payments, pending),
        () => undefined,
      );
      if (!live) return;
      if (purchase?.status === 'done' || purchase?.status === 'failed') {
        sessionStorage.removeItem(PENDING_CHECKOUT_KEY);
        setReturned(
          purchase.status === 'done' ? { state: 'confirmed', points: purchase.points_added } : { state: 'failed' },
        );
        onRecorded();
        return;
      }
      if (purchase?.status === 'pending' && !waiting) {
        waiting = true;
        setReturned({ state: 'pending', points: pending?.points ?? null });
        onRecorded();
      }
      if (polls < POLLS) timer = setTimeout(() => void poll(), POLL_INTERVAL_MS);
      else if (!waiting) setReturned({ state: 'unconfirmed' });
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, watching]);
  return returned;
}

const NOTICE_CLASS: Partial<Record<CheckoutReturn['state'], string>> = {
  confirmed: 'notice positive',
  failed: 'notice negative',
};

function CheckoutNotice({ returned }: { returned: CheckoutReturn | null }) {
  if (!returned) return null;
  const text = {
    confirming: t('buy.confirming'),
    confirmed: returned.state === 'confirmed' ? t('buy.confirmed', { points: count(returned.points) }) : '',
    pending:
      returned.state === 'pending' && returned.points !== null
        ? t('buy.pending', { points: count(returned.points) })
        : t('buy.pendingSome'),
    failed: t('buy.failed'),
    unconfirmed: t('buy.unconfirmed'),
    cancelled: t('buy.cancelled'),
  }[returned.state];
  return (
    <p
      class={NOTICE_CLASS[returned.state] ?? 'notice'}
      role="status"
      data-testid="checkout-status"
      data-state={returned.state}
    >
      {text}
    </p>
  );
}

export function AccountPage({ session }: { session: Session }) {
  const client = accountClient(session);
  const account = useAsync(() => client.getAccount(), [client]);
  const usage = useAsync(() => client.getUsage(30), [client]);
  const transactions = useAsync(() => client.getTransactions(50), [client]);
  const payments = useAsync(() => client.getPayments(100), [client]);
  const pricing = useAsync(() => publicClient.getPricing(), []);
  const returned = useCheckoutReturn(client, () => {
    account.reload();
    transactions.reload();
    payments.reload();
  });
  const offer = pricing.data?.payments;

  return (
    <div class="account">
      <Problem error={account.error} />
      {account.data && (
        <section class="card" aria-labelledby="balance-title">
          <h2 id="balance-title">{t('account.balance')}</h2>
          <p class="balance" data-testid="balance" data-points={account.data.points_balance}>
            {tn('unit.points', account.data.points_balance)}{' '}
            <span class="muted">({formatUsd(account.data.points_balance)})</span>
          </p>
          <p class="muted">
            {account.data.email} ·{' '}
            {t('account.today', {
              requests: tn('unit.requests', account.data.today_usage.requests),
              points: tn('unit.points', account.data.today_usage.points_spent),
            })}
          </p>
          <p data-testid="free-pages" data-left={account.data.free_pages.left}>
            {t('account.freePages', {
              left: count(account.data.free_pages.left),
              monthly: count(account.data.free_pages.monthly),
              date: utcDate(account.data.free_pages.resets_at),
            })}
          </p>
          <CheckoutNotice returned={returned} />
          {offer?.available && payments.data && (
            <BuyCredits client={client} offer={offer} paymentIds={payments.data.map((p) => p.id)} />
          )}
          {offer && !offer.available && <p class="hint">{t('account.noPurchase')}</p>}
        </section>
      )}
      <section class="card" aria-labelledby="usage-title">
        <h2 id="usage-title">{t('account.usage')}</h2>
        <Problem error={usage.error} />
        {usage.data && <UsageChart rows={usage.data} />}
      </section>
      <section class="card" aria-labelledby="transactions-title">
        <h2 id="transactions-title">{t('account.transactions')}</h2>
        <Problem error={transactions.error} />
        {transactions.data?.length === 0 && <p>{t('account.noTransactions')}</p>}
        {transactions.data && transactions.data.length > 0 && (
          <DataTable
            label={t('account.transactions')}
            columns={[
              t('account.when'),
              t('account.type'),
              t('account.amount'),
              t('account.balanceAfter'),
              t('account.description'),
            ]}
          >
            {transactions.data.map((tx) => (
              <tr key={tx.id} data-testid="transaction-row" data-type={tx.type}>
                <td>{dateTime(tx.created_at)}</td>
                <td>{t(TRANSACTION_TYPES[tx.type])}</td>
                <td class={tx.amount < 0 ? 'negative' : 'positive'}>
                  {tx.amount > 0 ? '+' : ''}
                  {count(tx.amount)}
                </td>
                <td>{count(tx.balance_after)}</td>
                <td>
                  <TransactionDescription transaction={tx} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section class="card" aria-labelledby="payments-title">
        <h2 id="payments-title">{t('account.payments')}</h2>
        <Problem error={payments.error} />
        {payments.data?.length === 0 && <p>{t('account.noPayments')}</p>}
        {payments.data && payments.data.length > 0 && (
          <DataTable
            label={t('account.payments')}
            columns={[
              t('account.when'),
              t('account.provider'),
              t('account.amount'),
              t('account.pointsAdded'),
              t('account.state'),
            ]}
          >
            {payments.data.map((p) => (
              <tr key={p.id} data-testid="payment-row" data-points={p.points_added} data-status={p.status}>
                <td>{dateTime(p.paid_at ?? p.created_at)}</td>
                <td>{p.provider}</td>
                <td>
                  {p.amount} {p.currency.toUpperCase()}
                </td>
                <td>{count(p.points_added)}</td>
                <td class={PAYMENT_STATUS_CLASS[p.status]}>{paymentStatus(p.status)}</td>
              </tr>
            ))}
          </DataTable>
        )}
        {payments.data?.some((p) => p.status === 'pending') && <p class="hint">{t('payment.pendingHint')}</p>}
      </section>
    </div>
  );
}
