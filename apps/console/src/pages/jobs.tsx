import { useState } from 'preact/hooks';
import type { DocconvClient, Job, JobStatus } from '@docconv/client';
import { Problem } from '../components/problem';
import { StatusBadge } from '../components/status-badge';
import { count, dateTime, jobTitle } from '../format';
import { t } from '../i18n';
import { href } from '../router';
import { useAsync } from '../use-async';
import { DataTable } from '../components/data-table';

const STATUSES: JobStatus[] = ['pending', 'queued', 'processing', 'done', 'error', 'cancelled'];
const PAGE_SIZE = 20;

export function JobsPage({ client }: { client: DocconvClient }) {
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [more, setMore] = useState<{ jobs: Job[]; cursor: string | null }>({ jobs: [], cursor: null });
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<unknown>();
  const first = useAsync(async () => {
    const page = await client.listJobs({ status: status || undefined, limit: PAGE_SIZE });
    setMore({ jobs: [], cursor: page.next_cursor });
    return page;
  }, [client, status]);

  const loadMore = async () => {
    if (!more.cursor) return;
    setLoadingMore(true);
    try {
      const page = await client.listJobs({ status: status || undefined, limit: PAGE_SIZE, cursor: more.cursor });
      setMore({ jobs: [...more.jobs, ...page.jobs], cursor: page.next_cursor });
    } catch (e) {
      setError(e);
    } finally {
      setLoadingMore(false);
    }
  };
  const jobs = [...(first.data?.jobs ?? []), ...more.jobs];

  return (
    <div>
      <div class="toolbar">
        <label for="status-filter">{t('jobs.filter')}</label>
        <select id="status-filter" value={status} onChange={(e) => setStatus(e.currentTarget.value as JobStatus | '')}>
          <option value="">{t('jobs.all')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
        <button type="button" class="secondary" onClick={first.reload}>
          {t('common.refresh')}
        </button>
      </div>
      <Problem error={first.error ?? error} />
      {first.loading && !first.data && <p aria-busy="true">{t('common.loading')}</p>}
      {first.data && jobs.length === 0 && <p>{t('jobs.none')}</p>}
      {jobs.length > 0 && (
        <DataTable
          label={t('nav.jobs')}
          columns={[t('jobs.file'), t('jobs.status'), t('jobs.pages'), t('jobs.cost'), t('jobs.created')]}
        >
          {jobs.map((job) => (
            <tr key={job.job_id}>
              <td>
                <a href={href({ page: 'job', jobId: job.job_id })}>
                  {job.filename ? jobTitle(job.filename) : job.job_id}
                </a>
              </td>
              <td>
                <StatusBadge status={job.status} />
              </td>
              <td>
                {count(job.done_pages)}/{count(job.total_pages)}
              </td>
              <td>{count(job.cost_points)}</td>
              <td>{dateTime(job.created_at)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {more.cursor && (
        <button type="button" class="secondary" disabled={loadingMore} onClick={loadMore}>
          {loadingMore ? t('common.loading') : t('jobs.more')}
        </button>
      )}
    </div>
  );
}
