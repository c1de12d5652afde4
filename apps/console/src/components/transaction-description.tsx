import type { Transaction } from '@docconv/client';
import { jobTitle } from '../format';
import { t } from '../i18n';
import { href } from '../router';
import { describeTransaction, shortJobId, splitJobIds } from '../transactions';

/** A transaction's description in the reader's language, its job a short link to the job's page; the service's own words on hover. */
export function TransactionDescription({ transaction }: { transaction: Pick<Transaction, 'type' | 'description'> }) {
  const described = describeTransaction(transaction);
  if ('text' in described) {
    const parts = splitJobIds(described.text);
    return <span>{parts.map((part, i) => (i % 2 === 1 ? <JobLink key={i} jobId={part} /> : part))}</span>;
  }
  const { values, jobId, format } = described;
  const text = t(described.key, {
    ...values,
    ...(values.title !== undefined ? { title: jobTitle(values.title) } : {}),
    ...(format ? { format: t(`format.${format}`) } : {}),
  });
  // t leaves `{job}` in the text (it has no value): the link goes in its place.
  const [before, after] = text.split('{job}');
  return (
    <span title={transaction.description}>
      {jobId && after !== undefined ? (
        <>
          {before}
          <JobLink jobId={jobId} />
          {after}
        </>
      ) : (
        text
      )}
    </span>
  );
}

function JobLink({ jobId }: { jobId: string }) {
  return (
    <a
      href={href({ page: 'job', jobId })}
      title={t('transaction.openJob', { id: jobId })}
      data-testid="transaction-job"
    >
      {shortJobId(jobId)}
    </a>
  );
}
