/**
 * The TypeScript SDK of the document conversion service: a typed client generated from the
 * service's OpenAPI document, and helpers for the whole flow (upload → confirm → wait →
 * download → convert) and for accounts and keys.
 */
export { createClient, serviceRoot, unwrap } from './client';
export type { Account, ClientOptions, DocconvClient, JobList, JobStatus, Transaction, UsageRow } from './client';
export { createKey, login, signup } from './auth';
export type { CreateKeyOptions, Credentials, IssuedKey, Scope, Session } from './auth';
export {
  confirm,
  convert,
  downloadConverted,
  downloadMarkdown,
  FINISHED_STATUSES,
  uploadFiles,
  waitForJob,
} from './jobs';
export type {
  ChargeOptions,
  Confirmation,
  Conversion,
  ConversionFormat,
  OcrEngine,
  OcrModel,
  UploadInput,
  UploadOptions,
  WaitOptions,
} from './jobs';
export { DocconvError } from './errors';
export type { ClientErrorCode, FieldError, Problem } from './errors';
export { formatUsd, normaliseJob, normalisePreview } from './normalize';
export type { Cost, Job, ReceivedJob, ReceivedPreview, UploadPreview } from './normalize';
export type { components, paths } from './schema';
