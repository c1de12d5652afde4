import { useEffect, useState } from 'preact/hooks';
import {
  downloadFile,
  formatUsd,
  streamJobEvents,
  unwrap,
  type DocconvClient,
  type Job,
  type JobEventSnapshot,
} from '@docconv/client';
import { Problem } from '../components/problem';
import { ChunkView } from '../components/chunk-view';
import { PageView } from '../components/page-view';
import { JobProgress } from '../components/progress';
import { StatusBadge } from '../components/status-badge';
import { confirmLabel, count, dateTime, jobTitle, points, saveFile } from '../format';
import { t, tn } from '../i18n';
import { linksPictures, RENDER_LIMIT, renderMarkdown, resultPictures } from '../markdown';
import { href } from '../router';
import { useAsync } from '../use-async';
import { Conversions } from '../components/job-conversions';
import { Fact } from '../components/fact';

const RUNNING = new Set(['queued', 'processing']);

export function JobPage({ client, jobId }: { client: DocconvClient; jobId: string }) {
  const job = useAsync(() => client.getJob(jobId), [client, jobId]);
  const live = useLiveProgress(client, job.data, job.reload);
  if (job.error && !job.data) return <Problem error={job.error} />;
  if (!job.data) return <p aria-busy="true">{t('common.loading')}</p>;
  const current = job.data;
  const snapshot = live ?? current;
  return (
    <div class="job">
      <p>
        <a href={href({ page: 'jobs' })}>← {t('nav.jobs')}</a>
      </p>
      <Rename client={client} job={current} onRenamed={job.reload} />
      <dl class="facts">
        <Fact term={t('jobs.status')}>
          <StatusBadge status={snapshot.status} />
        </Fact>
        <Fact term={t('job.model')}>
          {t(current.ocr_model === 'basic' ? 'model.basic' : 'model.premium')} · {current.ocr_engine}
        </Fact>
        <Fact term={t('jobs.cost')}>{points(current.cost_points)}</Fact>
        {current.refunded_points > 0 && <Fact term={t('job.refunded')}>{points(current.refunded_points)}</Fact>}
        <Fact term={t('jobs.created')}>{dateTime(current.created_at)}</Fact>
        <Fact term={t('job.finished')}>{dateTime(current.finished_at)}</Fact>
      </dl>
      {snapshot.status !== 'pending' && snapshot.status !== 'cancelled' && (
        <JobProgress
          donePages={snapshot.done_pages}
          totalPages={snapshot.total_pages}
          doneFiles={snapshot.done_files}
          totalFiles={snapshot.total_files}
          finished={snapshot.status === 'done'}
        />
      )}
      <Lifecycle client={client} job={current} status={snapshot.status} onChanged={job.reload} />
      {current.status === 'done' && (
        <>
          <Conversions client={client} job={current} onChanged={job.reload} />
          <PageView client={client} job={current} />
          <ChunkView client={client} job={current} />
          <Result client={client} job={current} />
        </>
      )}
      {current.status === 'cancelled' && current.done_pages > 0 && (
        <>
          <p class="hint">{tn('job.stoppedPartial', current.total_pages, { done: count(current.done_pages) })}</p>
          <Result client={client} job={current} />
        </>
      )}
    </div>
  );
}

/**
 * The job's progress as the API streams it (Server-Sent Events) while it is queued or
 * processing; the record is reloaded when the stream ends. Polls if the stream breaks.
 */
function useLiveProgress(client: DocconvClient, job: Job | undefined, reload: () => void) {
  const [snapshot, setSnapshot] = useState<JobEventSnapshot>();
  const jobId = job?.job_id;
  const running = job !== undefined && RUNNING.has(job.status);
  useEffect(() => {
    if (!jobId || !running) {
      setSnapshot(undefined);
      return;
    }
    const abort = new AbortController();
    let poll: ReturnType<typeof setTimeout> | undefined;
    streamJobEvents(client, jobId, { onEvent: (event) => setSnapshot(event.job), signal: abort.signal }).then(
      () => reload(),
      () => {
        if (!abort.signal.aborted) poll = setTimeout(reload, 2000);
      },
    );
    return () => {
      abort.abort();
      clearTimeout(poll);
    };
  }, [client, jobId, running]);
  return snapshot;
}

function Rename({ client, job, onRenamed }: { client: DocconvClient; job: Job; onRenamed: () => void }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(job.filename);
  const [error, setError] = useState<unknown>();
  const save = async (event: Event) => {
    event.preventDefault();
    try {
      await unwrap(
        client.api.PATCH('/api/v1/jobs/{job_id}/title', {
          params: { path: { job_id: job.job_id } },
          body: { title: title.trim() },
        }),
      );
      setEditing(false);
      setError(undefined);
      onRenamed();
    } catch (e) {
      setError(e);
    }
  };
  if (!editing) {
    return (
      <div class="title-row">
        <h2 class="job-title">{job.filename ? jobTitle(job.filename) : job.job_id}</h2>
        <button
          type="button"
          class="link"
          onClick={() => {
            setTitle(job.filename);
            setEditing(true);
          }}
        >
          {t('job.rename')}
        </button>
      </div>
    );
  }
  return (
    <form class="title-row" onSubmit={save}>
      <label class="visually-hidden" for="job-title">
        {t('job.title')}
      </label>
      <input id="job-title" value={title} maxLength={200} required onInput={(e) => setTitle(e.currentTarget.value)} />
      <button type="submit">{t('common.save')}</button>
      <button type="button" class="secondary" onClick={() => setEditing(false)}>
        {t('common.cancel')}
      </button>
      <Problem error={error} />
    </form>
  );
}

/** Confirm, cancel, stop, retry or refund: whatever the job's state (`status`, as it streams in) allows. */
function Lifecycle(props: { client: DocconvClient; job: Job; status: string; onChanged: () => void }) {
  const { client, job, status, onChanged } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const path = { path: { job_id: job.job_id } };
  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
      onChanged();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => run(() => unwrap(client.api.POST('/api/v1/jobs/{job_id}/cancel', { params: path })));
  const action = (kind: 'retry' | 'refund') =>
    run(() => unwrap(client.api.POST('/api/v1/jobs/{job_id}/action', { params: path, body: { action: kind } })));
  return (
    <div>
      {job.status === 'pending' && (
        <div class="card">
          <p>{t('job.pending')}</p>
          <div class="actions">
            <button
              type="button"
              disabled={busy}
              onClick={() => run(() => unwrap(client.api.POST('/api/v1/jobs/{job_id}/confirm', { params: path })))}
            >
              {confirmLabel(job.quoted_points)}
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={cancel}>
              {t('quote.discard')}
            </button>
          </div>
        </div>
      )}
      {status === 'queued' && (
        <button type="button" class="secondary" disabled={busy} onClick={cancel}>
          {t('job.cancel')}
        </button>
      )}
      {status === 'processing' && (
        <button type="button" class="secondary" data-testid="stop" disabled={busy} onClick={cancel}>
          {t('job.stop')}
        </button>
      )}
      {job.status === 'error' && (
        <div class="card error-card">
          <h3>{t('job.failed')}</h3>
          <pre class="error-log">{job.error_log ?? t('job.noLog')}</pre>
          {job.refundable ? (
            <div class="actions">
              {job.retry_count < 3 && (
                <button type="button" disabled={busy} onClick={() => action('retry')}>
                  {t('job.retry', { left: 3 - job.retry_count })}
                </button>
              )}
              <button type="button" class="secondary" disabled={busy} onClick={() => action('refund')}>
                {t('job.refund', { price: formatUsd(job.cost_points) })}
              </button>
            </div>
          ) : (
            <p class="hint">{t('job.notRefundable')}</p>
          )}
        </div>
      )}
      <Problem error={error} />
    </div>
  );
}

function Result({ client, job }: { client: DocconvClient; job: Job }) {
  // The Markdown and the name the service gives its download (the job title, safe on every operating system).
  const file = useAsync(async () => {
    const { bytes, filename } = await downloadFile(client, job.job_id, 'md');
    return { text: new TextDecoder().decode(bytes), name: filename ?? 'result.md' };
  }, [client, job.job_id]);
  const markdown = { data: file.data?.text, error: file.error };
  // The pictures the Markdown links come from the zip download, which holds them beside it.
  const pictures = useAsync(async () => {
    if (file.data === undefined || !linksPictures(file.data.text)) return undefined;
    return resultPictures((await downloadFile(client, job.job_id, 'zip')).bytes);
  }, [client, job.job_id, file.data]);
  const [view, setView] = useState<'rendered' | 'source'>('rendered');
  return (
    <section class="card" aria-labelledby="result-title">
      <div class="title-row">
        <h3 id="result-title">{t('result.title')}</h3>
        {markdown.data !== undefined && (
          <button
            type="button"
            data-testid="download-markdown"
            onClick={() => saveFile(file.data!.name, markdown.data!, 'text/markdown;charset=utf-8')}
          >
            {t('result.download')}
          </button>
        )}
      </div>
      <Problem error={markdown.error} />
      {markdown.data !== undefined && (
        <>
          <div class="tabs" role="group" aria-label={t('result.view')}>
            <button type="button" aria-pressed={view === 'rendered'} onClick={() => setView('rendered')}>
              {t('result.rendered')}
            </button>
            <button type="button" aria-pressed={view === 'source'} onClick={() => setView('source')}>
              {t('result.source')}
            </button>
          </div>
          {markdown.data.length > RENDER_LIMIT && <p class="hint">{t('result.truncated')}</p>}
          {view === 'rendered' ? (
            <article
              class="markdown"
              dangerouslySetInnerHTML={{ __html: renderMarkdown(markdown.data, pictures.data) }}
            />
          ) : (
            <pre class="markdown-source">{markdown.data.slice(0, RENDER_LIMIT)}</pre>
          )}
        </>
      )}
    </section>
  );
}
