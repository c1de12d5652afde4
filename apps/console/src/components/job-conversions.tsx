/** The conversions section of a job's page: converting its Markdown to the office formats. */
import { useState } from 'preact/hooks';
import {
  conversionPrice,
  convert,
  formatUsd,
  unwrap,
  type Conversion,
  type ConversionFormat,
  type DocconvClient,
  type Job,
  type Pricing,
} from '@docconv/client';
import { publicClient } from '../api';
import { Problem } from './problem';
import { pointsPrice } from '../format';
import { t } from '../i18n';
import { useAsync } from '../use-async';

/** The office formats a job's Markdown converts to, in the order they are offered. */
const FORMATS: { format: ConversionFormat; extension: string }[] = [
  { format: 'docx', extension: 'DOCX' },
  { format: 'pptx', extension: 'PPTX' },
  { format: 'hwpx', extension: 'HWPX' },
  { format: 'xlsx_basic', extension: 'XLSX' },
  { format: 'xlsx_advanced', extension: 'XLSX' },
];

/** A job's conversions: one row per output format, with its price, its state and its download. */
export function Conversions({ client, job, onChanged }: { client: DocconvClient; job: Job; onChanged: () => void }) {
  const pricing = useAsync(() => unwrap(publicClient.api.GET('/api/v1/pricing')), []);
  return (
    <section class="card" aria-labelledby="conversions-title">
      <h3 id="conversions-title">{t('convert.title')}</h3>
      <Problem error={pricing.error} />
      {pricing.data && (
        <ul class="conversions">
          {FORMATS.map(({ format, extension }) => (
            <ConversionRow
              key={format}
              client={client}
              job={job}
              pricing={pricing.data!}
              format={format}
              extension={extension}
              onChanged={onChanged}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ConversionRow(props: {
  client: DocconvClient;
  job: Job;
  pricing: Pricing;
  format: ConversionFormat;
  extension: string;
  onChanged: () => void;
}) {
  const { client, job, format } = props;
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [result, setResult] = useState<Conversion>();
  const price = conversionPrice(props.pricing, job, format);
  const paid =
    (format === 'xlsx_basic' && job.xlsx_basic_converted) ||
    (format === 'xlsx_advanced' && job.xlsx_advanced_converted);
  const name = t(`format.${format}`);
  const priceText = paid ? t('convert.paid') : price === 0 ? t('convert.free') : pointsPrice(price);

  const run = async () => {
    setAsking(false);
    setBusy(true);
    setError(undefined);
    try {
      setResult(await convert(client, job.job_id, format));
      if (price > 0) props.onChanged();
    } catch (e) {
      setError(e);
      if (format === 'xlsx_advanced') props.onChanged();
    } finally {
      setBusy(false);
    }
  };
  const advancedAction = async (action: 'retry' | 'refund') => {
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(
        client.api.POST('/api/v1/jobs/{job_id}/xlsx-advanced-action', {
          params: { path: { job_id: job.job_id } },
          body: { action },
        }),
      );
      props.onChanged();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <li>
      <div class="conversion">
        <span>
          <strong>{name}</strong> <span class="muted">{priceText}</span>
        </span>
        {result ? (
          <a class="button" data-testid={`download-${format}`} href={result.download_url} download>
            {t('convert.download', { format: props.extension })}
          </a>
        ) : asking ? (
          <span class="actions">
            <button type="button" data-testid={`confirm-${format}`} onClick={run}>
              {t('convert.confirm', { price: formatUsd(price) })}
            </button>
            <button type="button" class="secondary" onClick={() => setAsking(false)}>
              {t('common.cancel')}
            </button>
          </span>
        ) : (
          <button
            type="button"
            data-testid={`convert-${format}`}
            disabled={busy}
            onClick={() => (price > 0 ? setAsking(true) : run())}
          >
            {busy ? t('common.working') : t('convert.button', { format: name })}
          </button>
        )}
      </div>
      {format === 'xlsx_advanced' && job.xlsx_advanced_status === 'error' && !result && (
        <div class="actions">
          <span class="hint">{job.xlsx_advanced_recovery_notes ?? t('convert.advancedFailed')}</span>
          {job.xlsx_advanced_refundable && (
            <>
              <button type="button" disabled={busy} onClick={() => advancedAction('retry')}>
                {t('convert.retry')}
              </button>
              <button type="button" class="secondary" disabled={busy} onClick={() => advancedAction('refund')}>
                {t('convert.refund')}
              </button>
            </>
          )}
        </div>
      )}
      <Problem error={error} />
    </li>
  );
}
