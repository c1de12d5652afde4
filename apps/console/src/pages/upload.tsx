import { useState } from 'preact/hooks';
import {
  confirm,
  formatUsd,
  unwrap,
  uploadFiles,
  type DocconvClient,
  type OcrEngine,
  type OcrModel,
  type UploadPreview,
} from '@docconv/client';
import { publicClient, type Capabilities } from '../api';
import { Problem } from '../components/problem';
import { bytes, confirmLabel, count, dateTime, points, pointsPrice } from '../format';
import { formatLabel, t, tn } from '../i18n';
import { navigate } from '../router';
import { useAsync } from '../use-async';
import { Fact } from '../components/fact';

export function UploadPage({ client }: { client: DocconvClient }) {
  const capabilities = useAsync(() => unwrap(publicClient.api.GET('/api/v1/capabilities')), []);
  // The free basic pages left this month choose the model offered first; without them (the account
  // could not be read) the form offers what it did before.
  const account = useAsync(() => client.getAccount(), [client]);
  const [preview, setPreview] = useState<UploadPreview>();
  // The model the user chose, kept across a discarded quote: once chosen, never replaced by a default.
  const [chosenModel, setChosenModel] = useState<OcrModel>();
  if (capabilities.error) return <Problem error={capabilities.error} />;
  if (!capabilities.data || account.loading) return <p aria-busy="true">{t('common.loading')}</p>;
  const freePagesLeft = account.data?.free_pages.left ?? 0;
  return preview ? (
    <Quote
      client={client}
      preview={preview}
      onDiscarded={() => {
        setPreview(undefined);
        account.reload();
      }}
    />
  ) : (
    <UploadForm
      client={client}
      capabilities={capabilities.data}
      freePagesLeft={freePagesLeft}
      model={chosenModel ?? defaultModel(capabilities.data.ocr_models, freePagesLeft)}
      onModel={setChosenModel}
      onPreview={setPreview}
    />
  );
}

/**
 * The model the form offers first: basic while the account has free pages left this month (they
 * apply to basic only, so a new user's first upload costs nothing), else premium. The API's own
 * default stays premium.
 */
function defaultModel(models: readonly OcrModel[], freePagesLeft: number): OcrModel {
  if (freePagesLeft > 0 && models.includes('basic')) return 'basic';
  return models.includes('premium') ? 'premium' : 'basic';
}

function UploadForm(props: {
  client: DocconvClient;
  capabilities: Capabilities;
  freePagesLeft: number;
  model: OcrModel;
  onModel: (model: OcrModel) => void;
  onPreview: (p: UploadPreview) => void;
}) {
  const { capabilities, client, model } = props;
  const { limits } = capabilities;
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [engine, setEngine] = useState<OcrEngine | ''>('');
  const [dpi, setDpi] = useState(300);
  const [refine, setRefine] = useState(false);
  const [columns, setColumns] = useState('');
  const [prompt, setPrompt] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const add = (list: FileList | null) => {
    if (!list) return;
    const added = [...list];
    setFiles((current) => [...current, ...added.filter((f) => !current.some((c) => c.name === f.name))]);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (files.length === 0) {
      setError(new Error(t('upload.noFiles')));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const preview = await uploadFiles(client, files, {
        model,
        engine: engine === '' ? undefined : engine,
        dpi,
        refine,
        columns: columns.trim() === '' ? undefined : columns.trim(),
        prompt: prompt.trim() === '' ? undefined : prompt.trim(),
      });
      props.onPreview(preview);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="upload" onSubmit={submit}>
      <div
        class={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          add(e.dataTransfer?.files ?? null);
        }}
      >
        <label for="files">
          <strong>{t('upload.drop')}</strong>
          <span>{t('upload.pick', { formats: capabilities.input_formats.map(formatLabel).join(', ') })}</span>
        </label>
        <input
          id="files"
          type="file"
          multiple
          accept={[...capabilities.input_formats.flatMap((f) => f.extensions), ...capabilities.archive_extensions].join(
            ',',
          )}
          onChange={(e) => add(e.currentTarget.files)}
        />
        <p class="hint">
          {t('upload.limits', {
            files: tn('unit.files', limits.max_files_per_upload),
            size: bytes(limits.max_upload_bytes),
            pages: tn('unit.pages', limits.max_pages_per_upload),
          })}
        </p>
      </div>
      {files.length > 0 && (
        <ul class="file-list" aria-label={t('upload.chosen')}>
          {files.map((file) => (
            <li key={file.name}>
              <span>{file.name}</span> <span class="muted">{bytes(file.size)}</span>
              <button
                type="button"
                class="link"
                aria-label={t('upload.remove', { name: file.name })}
                onClick={() => setFiles(files.filter((f) => f !== file))}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}

      <fieldset class="options">
        <legend>{t('upload.options')}</legend>
        <div class="grid">
          <div>
            <label for="model">{t('upload.model')}</label>
            <select
              id="model"
              value={model}
              aria-describedby="model-hint"
              onChange={(e) => props.onModel(e.currentTarget.value as OcrModel)}
            >
              {capabilities.ocr_models.map((m) => (
                <option key={m} value={m}>
                  {t(`model.${m}`)}
                </option>
              ))}
            </select>
            <p id="model-hint" class="hint" data-testid="free-basic" data-left={props.freePagesLeft}>
              {props.freePagesLeft > 0 &&
                capabilities.ocr_models.includes('basic') &&
                tn('upload.freeBasic', props.freePagesLeft)}
            </p>
          </div>
          <div>
            <label for="engine">{t('upload.engine')}</label>
            <select id="engine" value={engine} onChange={(e) => setEngine(e.currentTarget.value as OcrEngine | '')}>
              <option value="">{t('upload.engineDefault', { engine: capabilities.default_ocr_engine })}</option>
              {capabilities.ocr_engines.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <p id="engines-hint" class="hint">
              {capabilities.engines.length > 0 &&
                t('upload.enginesRunning', {
                  engines: capabilities.engines
                    .map((e) => `${e.name} ${e.version ?? ''} (${e.status})`.replace('  ', ' '))
                    .join(', '),
                })}{' '}
              {capabilities.transcription.model
                ? t('upload.speech', {
                    model: `${capabilities.transcription.model.name}, ${capabilities.transcription.model.engine}`,
                    languages: tn('unit.languages', capabilities.transcription.model.languages.length),
                  })
                : t('upload.noSpeech')}
            </p>
          </div>
          <div>
            <label for="dpi">{t('upload.dpi')}</label>
            <input
              id="dpi"
              type="number"
              min={limits.dpi_min}
              max={limits.dpi_max}
              step={1}
              value={dpi}
              onInput={(e) => setDpi(Number(e.currentTarget.value))}
            />
          </div>
        </div>
        <label class="inline">
          <input
            type="checkbox"
            checked={refine}
            disabled={!capabilities.refinement.available}
            onChange={(e) => setRefine(e.currentTarget.checked)}
            aria-describedby="refine-hint"
          />{' '}
          {t('upload.refine')}
        </label>
        <p id="refine-hint" class="hint">
          {capabilities.refinement.available ? t('upload.refineHint') : t('upload.refineUnavailable')}
        </p>
        <label for="columns">{t('upload.columns')}</label>
        <input
          id="columns"
          value={columns}
          placeholder={t('upload.columnsPlaceholder')}
          onInput={(e) => setColumns(e.currentTarget.value)}
        />
        <label for="prompt">{t('upload.prompt')}</label>
        <textarea
          id="prompt"
          rows={2}
          maxLength={4000}
          value={prompt}
          onInput={(e) => setPrompt(e.currentTarget.value)}
        />
      </fieldset>
      <Problem error={error} />
      <button type="submit" disabled={busy}>
        {busy ? t('upload.measuring') : t('upload.submit')}
      </button>
    </form>
  );
}

/** The preview's price, as the API quoted it; nothing is charged until Confirm. */
function Quote(props: { client: DocconvClient; preview: UploadPreview; onDiscarded: () => void }) {
  const { preview, client } = props;
  const { cost } = preview;
  const [busy, setBusy] = useState<'confirm' | 'discard'>();
  const [error, setError] = useState<unknown>();
  const after = preview.balance - cost.points;
  const act = async (kind: 'confirm' | 'discard') => {
    setBusy(kind);
    setError(undefined);
    try {
      if (kind === 'confirm') {
        await confirm(client, preview.job_id);
        navigate({ page: 'job', jobId: preview.job_id });
      } else {
        await unwrap(client.api.POST('/api/v1/jobs/{job_id}/cancel', { params: { path: { job_id: preview.job_id } } }));
        props.onDiscarded();
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const rows: [string, string][] = [
    [t('quote.files'), count(preview.total_files)],
    [t('quote.pages'), count(cost.pages)],
    [t('quote.images'), count(cost.image_count)],
    ...(preview.has_media
      ? ([
          [t('quote.audio'), t('quote.seconds', { n: count(cost.audio_seconds) })],
          [t('quote.video'), t('quote.seconds', { n: count(cost.video_seconds) })],
        ] as [string, string][])
      : []),
    [t('quote.model'), `${t(`model.${preview.ocr_model}`)} · ${preview.ocr_engine}`],
    [t('quote.freePages'), count(cost.free_pages_used)],
    ...(preview.docling_refinement
      ? ([[t('quote.refinementPages'), count(preview.docling_refinement_pages)]] as [string, string][])
      : []),
  ];
  return (
    <section class="quote card" aria-labelledby="quote-title">
      <h2 id="quote-title">{t('quote.title')}</h2>
      <dl class="facts">
        {rows.map(([label, value]) => (
          <Fact key={label} term={label}>
            {value}
          </Fact>
        ))}
      </dl>
      <p class="price">
        <span>{t('quote.price')}</span>
        <strong data-testid="quote-points" data-points={cost.points}>
          {pointsPrice(cost.points)}
        </strong>
      </p>
      <dl class="facts">
        <Fact term={t('quote.balance')}>{points(preview.balance)}</Fact>
        <Fact term={t('quote.balanceAfter')} valueClass={after < 0 ? 'negative' : undefined}>
          {count(after)} ({after < 0 ? `-${formatUsd(-after)}` : formatUsd(after)})
        </Fact>
        <Fact term={t('quote.expires')}>{dateTime(preview.expires_at)}</Fact>
      </dl>
      {preview.skipped_files.length > 0 && (
        <div class="warning" role="note">
          <p>{tn('quote.skipped', preview.skipped_files.length)}</p>
          <ul>
            {preview.skipped_files.map((f) => (
              <li key={f.path}>{f.reason}</li>
            ))}
          </ul>
        </div>
      )}
      {after < 0 && (
        <p class="warning" role="note">
          {t('quote.short')}
        </p>
      )}
      <Problem error={error} />
      <div class="actions">
        <button
          type="button"
          data-testid="confirm"
          disabled={busy !== undefined || after < 0}
          onClick={() => act('confirm')}
        >
          {busy === 'confirm' ? t('common.working') : confirmLabel(cost.points)}
        </button>
        <button type="button" class="secondary" disabled={busy !== undefined} onClick={() => act('discard')}>
          {t('quote.discard')}
        </button>
      </div>
    </section>
  );
}
