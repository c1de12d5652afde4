import { useState } from 'preact/hooks';
import { allChunks, listChunks, type Chunk, type ChunkOptions, type DocconvClient, type Job } from '@docconv/client';
import { saveFile } from '../format';
import { t, tn } from '../i18n';
import { renderMarkdown } from '../markdown';
import { useAsync } from '../use-async';
import { Problem } from './problem';

const SIZES = [256, 512, 1024, 2048];
/** Chunks shown at first; more come a page at a time. */
const PAGE = 50;

/**
 * A finished job's result as the chunks GET /jobs/{id}/chunks cuts it into, for whoever feeds
 * search or a language model: the strategy and size to try, each chunk's heading path, pages and
 * tokens beside its Markdown rendered, and every chunk as JSON Lines to download.
 */
export function ChunkView({ client, job }: { client: DocconvClient; job: Job }) {
  const [strategy, setStrategy] = useState<NonNullable<ChunkOptions['strategy']>>('structure');
  const [maxTokens, setMaxTokens] = useState(512);
  // The chunks of the pages asked for after the first, and the cursor of the next (undefined: none asked for yet).
  const [more, setMore] = useState<{ chunks: Chunk[]; cursor?: string | null }>({ chunks: [] });
  const first = useAsync(() => {
    setMore({ chunks: [] });
    return listChunks(client, job.job_id, { strategy, maxTokens, limit: PAGE });
  }, [client, job.job_id, strategy, maxTokens]);
  const shown = [...(first.data?.chunks ?? []), ...more.chunks];
  const cursor = more.cursor === undefined ? first.data?.next_cursor : more.cursor;
  const base = (job.filename || 'result').replace(/\.[^.]+$/, '');
  const download = async () => {
    const lines: string[] = [];
    for await (const chunk of allChunks(client, job.job_id, { strategy, maxTokens })) lines.push(JSON.stringify(chunk));
    saveFile(`${base}.chunks.jsonl`, `${lines.join('\n')}\n`, 'application/jsonl');
  };
  return (
    <section class="card chunk-view" aria-labelledby="chunks-title" data-testid="chunk-view">
      <div class="title-row">
        <h3 id="chunks-title">{t('chunks.title')}</h3>
        <span class="actions">
          <button type="button" class="secondary" data-testid="download-chunks" onClick={() => void download()}>
            {t('chunks.download')}
          </button>
        </span>
      </div>
      <p class="hint">{t('chunks.hint')}</p>
      <div class="chunk-options">
        <label>
          {t('chunks.strategy')}{' '}
          <select
            value={strategy}
            data-testid="chunk-strategy"
            onChange={(e) => setStrategy((e.target as HTMLSelectElement).value as typeof strategy)}
          >
            <option value="structure">{t('chunks.structure')}</option>
            <option value="page">{t('chunks.page')}</option>
          </select>
        </label>
        <label>
          {t('chunks.maxTokens')}{' '}
          <select
            value={String(maxTokens)}
            data-testid="chunk-size"
            onChange={(e) => setMaxTokens(Number((e.target as HTMLSelectElement).value))}
          >
            {SIZES.map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </label>
        {first.data && (
          <span class="hint" data-testid="chunk-count">
            {tn('chunks.count', first.data.total, { tokenizer: first.data.tokenizer })}
          </span>
        )}
      </div>
      <Problem error={first.error} />
      <ol class="chunk-list">
        {shown.map((chunk) => (
          <li key={chunk.index} class="chunk" data-testid="chunk">
            <p class="chunk-meta">
              <strong>#{chunk.index + 1}</strong> · {tn('chunks.tokens', chunk.tokens)}
              {chunk.pages && chunk.pages.length > 0 && <> · {pagesOf(chunk.pages)}</>}
              {chunk.heading_path.length > 0 && <span class="chunk-path"> · {chunk.heading_path.join(' › ')}</span>}
            </p>
            <div class="markdown chunk-text" dangerouslySetInnerHTML={{ __html: renderMarkdown(chunk.text) }} />
          </li>
        ))}
      </ol>
      {cursor && (
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            const page = await listChunks(client, job.job_id, { strategy, maxTokens, limit: PAGE, cursor });
            setMore((before) => ({ chunks: [...before.chunks, ...page.chunks], cursor: page.next_cursor ?? null }));
          }}
        >
          {t('chunks.more')}
        </button>
      )}
    </section>
  );
}

/** `page 3`, or `pages 3–5`. */
function pagesOf(pages: number[]): string {
  const first = pages[0];
  const last = pages[pages.length - 1];
  return first === last ? t('chunks.page1', { page: first }) : t('chunks.pages', { first, last });
}
