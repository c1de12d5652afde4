import type { Account, Capabilities, UsageRow } from '../client';
import { formatUsd, type Job, type UploadPreview } from '../normalize';
import { describeProgress } from './progress';

/** "1234 points ($1.234)": points are milli-USD. */
export function formatPoints(points: number): string {
  return `${points} points (${formatUsd(points)})`;
}

/** Label/value lines with the values aligned. */
function keyValues(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`).join('\n');
}

/** A table with a header row and columns padded to their widest cell. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** The upload preview: what was found, what confirming costs, and the balance it comes out of. */
export function formatPreview(preview: UploadPreview): string {
  const { cost } = preview;
  const rows: [string, string][] = [
    ['Job', preview.job_id],
    ['Files', `${preview.total_files} (${preview.file_type})`],
    ['Pages', String(preview.total_pages)],
  ];
  if (preview.has_media) rows.push(['Media', `${preview.media_duration_seconds} s`]);
  rows.push(['Model', `${preview.ocr_model} (${preview.ocr_engine})`]);
  if (preview.docling_refinement) rows.push(['Refinement', `${preview.docling_refinement_pages} pages`]);
  if (cost.free_pages_used > 0) rows.push(['Free pages', String(cost.free_pages_used)]);
  rows.push(['Cost', `${cost.points} points (${cost.usd})`], ['Balance', formatPoints(preview.balance)]);
  if (preview.expires_at) rows.push(['Quote valid until', `${preview.expires_at} UTC`]);
  for (const skipped of preview.skipped_files) rows.push(['Skipped', `${skipped.path}: ${skipped.reason}`]);
  return keyValues(rows);
}

/** Every field of a job a person checks: state, progress, cost, conversions and failure details. */
export function formatJob(job: Job): string {
  const rows: [string, string][] = [
    ['Job', job.job_id],
    ['Title', job.filename],
    ['Status', job.status],
    ['Progress', describeProgress(job)],
    ['Type', job.file_type],
    ['Model', `${job.ocr_model} (${job.ocr_engine})`],
    ['Cost', formatPoints(job.cost_points)],
    ['Created', `${job.created_at} UTC`],
  ];
  if (job.finished_at) rows.push(['Finished', `${job.finished_at} UTC`]);
  const converted = [job.xlsx_basic_converted && 'xlsx_basic', job.xlsx_advanced_converted && 'xlsx_advanced'].filter(
    Boolean,
  );
  if (converted.length > 0) rows.push(['Converted', converted.join(', ')]);
  if (job.xlsx_advanced_status) rows.push(['XLSX Advanced', job.xlsx_advanced_status]);
  if (job.retry_count > 0) rows.push(['Retries', String(job.retry_count)]);
  if (job.refunded_points > 0) rows.push(['Refunded', formatPoints(job.refunded_points)]);
  if (job.error_log) rows.push(['Error', job.error_log]);
  if (job.refundable)
    rows.push(['Refundable', `yes: docconv retry ${job.job_id} (free) or docconv refund ${job.job_id}`]);
  return keyValues(rows);
}

/** One line per job, newest first, as the service lists them. */
export function formatJobList(jobs: Job[]): string {
  if (jobs.length === 0) return 'No jobs yet.';
  return table(
    ['JOB', 'STATUS', 'PROGRESS', 'POINTS', 'CREATED', 'TITLE'],
    jobs.map((job) => [
      job.job_id,
      job.status,
      describeProgress(job),
      String(job.cost_points),
      job.created_at,
      job.filename,
    ]),
  );
}

/** Daily requests and points spent, then today's numbers and the balance from the account. */
export function formatUsage(rows: UsageRow[], account: Account): string {
  const spent = rows.reduce((sum, row) => sum + row.points_spent, 0);
  const requests = rows.reduce((sum, row) => sum + row.requests, 0);
  const daily = table(
    ['DAY', 'REQUESTS', 'POINTS'],
    rows.map((row) => [row.day, String(row.requests), String(row.points_spent)]),
  );
  return [
    daily,
    '',
    keyValues([
      [`Total (${rows.length} days)`, `${requests} requests, ${formatPoints(spent)}`],
      ['Today', `${account.today_usage.requests} requests, ${formatPoints(account.today_usage.points_spent)}`],
      ['Balance', formatPoints(account.points_balance)],
    ]),
  ].join('\n');
}

/** What the service runs: OCR engines (the default marked), the speech model, the engine processes. */
export function formatCapabilities(capabilities: Capabilities): string {
  const engines = capabilities.ocr_engines
    .map((name) => (name === capabilities.default_ocr_engine ? `${name} (default)` : name))
    .join(', ');
  const model = capabilities.transcription.model;
  const rows: [string, string][] = [
    [
      'Input formats',
      `${capabilities.input_formats.map((f) => f.label).join(', ')}; archives (${capabilities.archive_extensions.join(' ')}) of them`,
    ],
    ['OCR engines', engines],
    ['OCR languages', capabilities.ocr_languages.join(', ')],
    [
      'Transcription',
      model
        ? `${model.name} on ${model.engine}${model.official ? '' : ' (not a published model)'}, ${model.languages.length} languages`
        : 'not available',
    ],
    [
      'Refinement',
      capabilities.refinement.available ? (capabilities.refinement.model ?? 'available') : 'not available',
    ],
  ];
  const processes = capabilities.engines.map((engine) => [
    engine.name,
    engine.status,
    engine.version ?? '-',
    engine.weights.join(' ') || '-',
    engine.languages.length > 5 ? `${engine.languages.length} languages` : engine.languages.join(' ') || '-',
    String(engine.restarts),
  ]);
  const stale = capabilities.stale ? '\nNo worker has reported lately: this is the last report seen.' : '';
  return processes.length > 0
    ? `${keyValues(rows)}\n\n${table(['ENGINE', 'STATE', 'VERSION', 'WEIGHTS', 'LANGUAGES', 'RESTARTS'], processes)}${stale}`
    : `${keyValues(rows)}${stale}`;
}
