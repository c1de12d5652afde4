import { count } from '../format';
import { t, tn } from '../i18n';

interface Props {
  donePages: number;
  totalPages: number;
  doneFiles: number;
  totalFiles: number;
  finished: boolean;
}

/** Progress of a job by pages (files when it has no pages), as an accessible progress bar. */
export function JobProgress({ donePages, totalPages, doneFiles, totalFiles, finished }: Props) {
  const fraction = finished ? 1 : totalPages > 0 ? donePages / totalPages : totalFiles > 0 ? doneFiles / totalFiles : 0;
  const percent = Math.round(Math.min(1, fraction) * 100);
  const label = `${tn('job.progressPages', totalPages, { done: count(donePages) })} · ${tn('job.progressFiles', totalFiles, { done: count(doneFiles) })}`;
  return (
    <div class="progress-block">
      <div
        class="progress"
        role="progressbar"
        aria-label={t('job.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% · ${label}`}
      >
        <div class="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p class="progress-text" aria-live="polite">
        <strong>{percent}%</strong> · {label}
      </p>
    </div>
  );
}
