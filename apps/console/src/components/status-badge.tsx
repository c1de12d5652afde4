import type { JobStatus } from '@docconv/client';
import { t } from '../i18n';

export function StatusBadge({ status }: { status: JobStatus }) {
  return <span class={`badge badge-${status}`}>{t(`status.${status}`)}</span>;
}
