import type { components } from './schema';

type Schemas = components['schemas'];

/** The cost part of an upload preview; points are milli-USD. */
export type Cost = Schemas['CostResponse'];

/** An upload preview (spec 2.3) with every field present; `expires_at` is null when the service did not send it. */
export type UploadPreview = Omit<Schemas['PreviewResponse'], 'cost' | 'expires_at'> & {
  cost: Cost;
  expires_at: string | null;
};

/** A job record (spec 2.2) with every field present. */
export type Job = Schemas['JobResponse'];

/**
 * A preview as any version of the service may send it: older forms omit the refinement
 * fields, `has_media`, `expires_at` and some cost fields (spec 2.3, 9).
 */
export type ReceivedPreview = Partial<Omit<Schemas['PreviewResponse'], 'cost'>> &
  Pick<Schemas['PreviewResponse'], 'job_id'> & { cost?: Partial<Cost> };

/** A job record as any version of the service may send it. */
export type ReceivedJob = Partial<Job> & Pick<Job, 'job_id' | 'status'>;

/**
 * Formats milli-USD points as the service does: a dollar sign and two decimals, or three
 * when the last one matters (10000 → "$10.00", 1234 → "$1.234", 5 → "$0.005").
 */
export function formatUsd(points: number): string {
  return `$${(points / 1000).toFixed(3).replace(/0$/, '')}`;
}

/** Fills what an older service left out of a cost object, from the preview it belongs to. */
function normaliseCost(cost: Partial<Cost> | undefined, preview: ReceivedPreview): Cost {
  const points = cost?.points ?? 0;
  return {
    pages: cost?.pages ?? preview.total_pages ?? 0,
    image_count: cost?.image_count ?? 0,
    audio_seconds: cost?.audio_seconds ?? 0,
    video_seconds: cost?.video_seconds ?? 0,
    ocr_model: cost?.ocr_model ?? preview.ocr_model ?? 'premium',
    free_pages_used: cost?.free_pages_used ?? 0,
    points,
    usd: cost?.usd ?? formatUsd(points),
  };
}

/**
 * An upload preview with defaults for the fields older forms omit: no file listing, no refinement (0 pages),
 * `has_media` from the media duration, cost fields from the preview and its points.
 */
export function normalisePreview(received: ReceivedPreview): UploadPreview {
  const mediaSeconds = received.media_duration_seconds ?? 0;
  return {
    ...received,
    status: 'pending',
    file_type: received.file_type ?? 'mixed',
    total_pages: received.total_pages ?? 0,
    total_files: received.total_files ?? 0,
    media_duration_seconds: mediaSeconds,
    docling_refinement: received.docling_refinement ?? false,
    docling_refinement_pages: received.docling_refinement_pages ?? 0,
    ocr_model: received.ocr_model ?? 'premium',
    ocr_engine: received.ocr_engine ?? 'easyocr',
    page_furniture: received.page_furniture ?? 'drop',
    html_content: received.html_content ?? 'main',
    has_media: received.has_media ?? mediaSeconds > 0,
    cost: normaliseCost(received.cost, received),
    balance: received.balance ?? 0,
    expires_at: received.expires_at ?? null,
    files: received.files ?? [],
    skipped_files: received.skipped_files ?? [],
  };
}

/**
 * A job record with defaults for fields an older service may not send (nothing converted,
 * nothing refunded, no page counted; conversion units counted from the pages, at least 1).
 */
export function normaliseJob(received: ReceivedJob): Job {
  return {
    ocr_model: 'premium',
    ocr_engine: 'easyocr',
    page_furniture: 'drop',
    html_content: 'main',
    file_type: 'mixed',
    filename: '',
    total_pages: 0,
    done_pages: 0,
    total_files: 0,
    done_files: 0,
    media_duration_seconds: 0,
    done_media_seconds: 0,
    cost_points: 0,
    error_log: null,
    created_at: '',
    finished_at: null,
    downloadable: received.status === 'done',
    xlsx_basic_converted: false,
    xlsx_advanced_converted: false,
    xlsx_advanced_status: null,
    xlsx_advanced_job_id: null,
    xlsx_advanced_refundable: false,
    xlsx_advanced_recovery_notes: null,
    refundable: false,
    retry_count: 0,
    refunded_points: 0,
    delivered_pages: 0,
    failed_pages: 0,
    refunded_pages: 0,
    quoted_points: 0,
    conversion_units: Math.max(1, received.total_pages ?? 0),
    ...withoutUndefined(received),
    job_id: received.job_id,
    status: received.status,
  };
}

/** Drops keys whose value is undefined, so spreading the rest keeps the defaults beneath. */
function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
