import { formatUsd, unwrap } from '@docconv/client';
import { accountClient } from '../api';
import { Problem } from '../components/problem';
import { UsageChart } from '../components/usage-chart';
import { count, dateTime } from '../format';
import { t } from '../i18n';
import type { Session } from '../session';
import { useAsync } from '../use-async';

export function AccountPage({ session }: { session: Session }) {
  const client = accountClient(session);
  const account = useAsync(() => client.getAccount(), [client]);
  const usage = useAsync(() => client.getUsage(30), [client]);
  const transactions = useAsync(() => client.getTransactions(50), [client]);
  const payments = useAsync(() => unwrap(client.api.GET('/api/v1/account/payments')), [client]);

  return (
    <div class="account">
      <Problem error={account.error} />
      {account.data && (
        <section class="card" aria-labelledby="balance-title">
          <h2 id="balance-title">{t('account.balance')}</h2>
          <p class="balance" data-testid="balance" data-points={account.data.points_balance}>
            {count(account.data.points_balance)} {t('common.points')}{' '}
            <span class="muted">({formatUsd(account.data.points_balance)})</span>
          </p>
          <p class="muted">
            {account.data.email} ·{' '}
            {t('account.today', {
              requests: count(account.data.today_usage.requests),
              points: count(account.data.today_usage.points_spent),
            })}
          </p>
          <p class="hint">{t('account.topUp')}</p>
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
          <div class="table-wrap" tabIndex={0} role="region" aria-label={t('account.transactions')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('account.when')}</th>
                  <th scope="col">{t('account.type')}</th>
                  <th scope="col">{t('account.amount')}</th>
                  <th scope="col">{t('account.balanceAfter')}</th>
                  <th scope="col">{t('account.description')}</th>
                </tr>
              </thead>
              <tbody>
                {transactions.data.map((tx) => (
                  <tr key={tx.id}>
                    <td>{dateTime(tx.created_at)}</td>
                    <td>{tx.type}</td>
                    <td class={tx.amount < 0 ? 'negative' : 'positive'}>
                      {tx.amount > 0 ? '+' : ''}
                      {count(tx.amount)}
                    </td>
                    <td>{count(tx.balance_after)}</td>
                    <td>{tx.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="payments-title">
        <h2 id="payments-title">{t('account.payments')}</h2>
        <Problem error={payments.error} />
        {payments.data?.length === 0 && <p>{t('account.noPayments')}</p>}
        {payments.data && payments.data.length > 0 && (
          <div class="table-wrap" tabIndex={0} role="region" aria-label={t('account.payments')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('account.when')}</th>
                  <th scope="col">{t('account.provider')}</th>
                  <th scope="col">{t('account.amount')}</th>
                  <th scope="col">{t('account.pointsAdded')}</th>
                  <th scope="col">{t('account.state')}</th>
                </tr>
              </thead>
              <tbody>
                {payments.data.map((p) => (
                  <tr key={p.id}>
                    <td>{dateTime(p.paid_at ?? p.created_at)}</td>
                    <td>{p.provider}</td>
                    <td>
                      {p.amount} {p.currency.toUpperCase()}
                    </td>
                    <td>{count(p.points_added)}</td>
                    <td>{p.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
