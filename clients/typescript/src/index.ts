/**
 * The TypeScript SDK of the document conversion service: a typed client generated from the
 * service's OpenAPI document, and helpers for the whole flow (upload → confirm → wait or
 * follow live → download → convert) and for accounts and keys. This is the Node entry: its
 * `uploadFiles` also reads paths on disk. Browsers use `./browser`, the same without that.
 */
export { createClient, serviceRoot, unwrap } from './client';
export type { Account, ClientOptions, DocconvClient, JobList, JobStatus, Transaction, UsageRow } from './client';
export { createKey, login, signup } from './auth';
export type { CreateKeyOptions, Credentials, IssuedKey, Scope, Session } from './auth';
export { confirm, convert, downloadConverted, downloadMarkdown, FINISHED_STATUSES, waitForJob } from './jobs';
export type {
  ChargeOptions,
  Confirmation,
  Conversion,
  ConversionFormat,
  OcrEngine,
  OcrModel,
  UploadFile,
  UploadOptions,
  WaitOptions,
} from './jobs';
export { uploadFiles } from './node-upload';
export type { UploadInput } from './node-upload';
export { streamJobEvents } from './events';
export type { JobEvent, JobEventSnapshot, StreamJobEventsOptions } from './events';
export { conversionPrice } from './pricing';
export type { Pricing } from './pricing';
export { DocconvError } from './errors';
export type { ClientErrorCode, FieldError, Problem } from './errors';
export { formatUsd, normaliseJob, normalisePreview } from './normalize';
export type { Cost, Job, ReceivedJob, ReceivedPreview, UploadPreview } from './normalize';
export type { components, paths } from './schema';
