import { useEffect, useMemo, useState } from 'preact/hooks';
import {
  downloadMarkdown,
  downloadStructured,
  downloadZip,
  unwrap,
  type DocconvClient,
  type Job,
  type StructuredResult,
} from '@docconv/client';
import { saveFile } from '../format';
import { t } from '../i18n';
import { renderMarkdown } from '../markdown';
import { useAsync } from '../use-async';
import { Problem } from './problem';

type Block = StructuredResult['blocks'][number];
type ResultPage = StructuredResult['pages'][number];

/** What the page view needs of a finished job: its Markdown as code points, its structured result and its files in order. */
interface Loaded {
  characters: string[];
  result: StructuredResult;
  /** File names in the job's order: a file's number is its index + 1. */
  files: string[];
}

/**
 * The pages of a finished job's PDFs and images, one at a time, each beside its Markdown: the
 * page as an image with a box over it for the block the pointer (or focus) is on, the page's
 * blocks rendered, and how the page was read. Low-confidence and failed pages are flagged.
 */
export function PageView({ client, job }: { client: DocconvClient; job: Job }) {
  const data = useAsync(async (): Promise<Loaded> => {
    const [markdown, result, files] = await Promise.all([
      downloadMarkdown(client, job.job_id),
      downloadStructured(client, job.job_id),
      unwrap(client.api.GET('/api/v1/jobs/{job_id}/files', { params: { path: { job_id: job.job_id } } })),
    ]);
    return { characters: Array.from(markdown), result, files: files.files.map((f) => f.path) };
  }, [client, job.job_id]);
  const [index, setIndex] = useState(0);
  if (data.error) return <Problem error={data.error} />;
  if (!data.data || data.data.result.pages.length === 0) return null;
  const { result } = data.data;
  const page = result.pages[Math.min(index, result.pages.length - 1)];
  const base = (job.filename || 'result').replace(/\.[^.]+$/, '');
  return (
    <section class="card page-view" aria-labelledby="pages-title">
      <div class="title-row">
        <h3 id="pages-title">{t('pages.title')}</h3>
        <span class="actions">
          <button
            type="button"
            class="secondary"
            data-testid="download-json"
            onClick={() => saveFile(`${base}.json`, JSON.stringify(result, null, 2), 'application/json')}
          >
            {t('pages.downloadJson')}
          </button>
          <button
            type="button"
            class="secondary"
            data-testid="download-zip"
            onClick={async () =>
              saveFile(
                `${base}.zip`,
                (await downloadZip(client, job.job_id)) as Uint8Array<ArrayBuffer>,
                'application/zip',
              )
            }
          >
            {t('pages.downloadZip')}
          </button>
        </span>
      </div>
      <p class="hint">{t('pages.hint')}</p>
      <nav class="page-list" aria-label={t('pages.title')}>
        {result.pages.map((p, i) => (
          <button
            type="button"
            key={`${p.file}-${p.page}`}
            aria-current={i === index ? 'page' : undefined}
            class={p.source === 'failed' ? 'page-failed' : p.low_confidence ? 'page-low' : undefined}
            title={t('pages.of', {
              file: p.file,
              page: p.page,
              count: result.pages.filter((other) => other.file === p.file).length,
            })}
            onClick={() => setIndex(i)}
          >
            {p.page}
            {(p.low_confidence || p.source === 'failed') && <span aria-hidden="true"> !</span>}
          </button>
        ))}
      </nav>
      <OnePage client={client} job={job} loaded={data.data} page={page} />
    </section>
  );
}

function OnePage({ client, job, loaded, page }: { client: DocconvClient; job: Job; loaded: Loaded; page: ResultPage }) {
  const [active, setActive] = useState<number>();
  const file = loaded.files.indexOf(page.file) + 1;
  const image = usePageImage(client, job.job_id, file, page.page);
  const blocks = useMemo(
    () => loaded.result.blocks.filter((b) => b.file === page.file && b.page === page.page),
    [loaded, page],
  );
  const percent = (value: number, of: number) => `${((value / of) * 100).toFixed(3)}%`;
  const shown = blocks.find((b) => b.id === active);
  // A page that was not read may have no size: its blocks are not drawn on it.
  const size = page.width && page.height ? { width: page.width, height: page.height } : undefined;
  return (
    <div class="page-pair" data-testid="page-pair">
      <figure class="page-image">
        {image.url && (
          <div class="page-frame">
            <img
              src={image.url}
              alt={t('pages.image', { page: page.page, file: page.file })}
              data-testid="page-image"
            />
            {shown?.box && size && (
              <div
                class="block-box"
                data-testid="block-box"
                style={{
                  left: percent(shown.box[0], size.width),
                  top: percent(shown.box[1], size.height),
                  width: percent(shown.box[2] - shown.box[0], size.width),
                  height: percent(shown.box[3] - shown.box[1], size.height),
                }}
              />
            )}
          </div>
        )}
        <Problem error={image.error} />
        <figcaption>
          {t('pages.of', {
            file: page.file,
            page: page.page,
            count: loaded.result.pages.filter((p) => p.file === page.file).length,
          })}
          <br />
          {t('pages.source', { source: t(`source.${page.source}`) })}
          {page.engine && <> · {t('pages.engine', { engine: page.engine, confidence: page.confidence ?? '–' })}</>}
        </figcaption>
        {page.low_confidence && <p class="warning">{t('pages.lowConfidence')}</p>}
        {page.source === 'failed' && (
          <p class="warning">
            {t('pages.failed')}
            {page.reason && (
              <>
                <br />
                {page.reason}
              </>
            )}
          </p>
        )}
      </figure>
      <div class="page-blocks markdown" data-testid="page-blocks">
        {blocks.length === 0 && <p class="hint">{t('pages.empty')}</p>}
        {blocks.map((block) => (
          <div
            key={block.id}
            class={`page-block${block.id === active ? ' active' : ''}${block.markdown ? '' : ' furniture'}`}
            data-block={block.id}
            data-type={block.type}
            tabIndex={0}
            onMouseEnter={() => setActive(block.id)}
            onFocus={() => setActive(block.id)}
            onMouseLeave={() => setActive((current) => (current === block.id ? undefined : current))}
            dangerouslySetInnerHTML={{ __html: blockHtml(block, loaded.characters) }}
          />
        ))}
      </div>
    </div>
  );
}

/** A block as the reader sees it: its Markdown rendered (a picture by its caption), page furniture as plain text. */
function blockHtml(block: Block, characters: string[]): string {
  if (block.type === 'figure') return renderMarkdown(`*${t('pages.figure', { caption: block.caption || '—' })}*`);
  if (!block.markdown) return renderMarkdown(`*${block.text.replace(/[*_\\[\]<>]/g, '\\$&')}*`);
  return renderMarkdown(characters.slice(block.markdown[0], block.markdown[1]).join(''));
}

/** The page's preview as an object URL (fetched with the session token, which an <img> cannot send), freed when it changes. */
function usePageImage(client: DocconvClient, jobId: string, file: number, page: number) {
  const [state, setState] = useState<{ url?: string; error?: unknown }>({});
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    setState({});
    client.api
      .GET('/api/v1/jobs/{job_id}/pages/{page}/preview', {
        params: { path: { job_id: jobId, page }, query: { file } },
        parseAs: 'blob',
      })
      .then(({ data, error, response }) => {
        if (!live) return;
        if (!response.ok || !data)
          return setState({ error: error ?? new Error(`preview answered ${response.status}`) });
        url = URL.createObjectURL(data);
        setState({ url });
      })
      .catch((error: unknown) => live && setState({ error }));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [client, jobId, file, page]);
  return state;
}
