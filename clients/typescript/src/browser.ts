/**
 * The browser entry of the SDK: everything the package offers except what needs Node (reading
 * files from paths, the `docconv` CLI). Nothing imported from here, directly or not, imports a
 * Node module; a test walks the imports to keep it so. `uploadFiles` here takes Files, named
 * Blobs, or names with their bytes.
 */
export { createClient, serviceRoot, unwrap } from './client';
export type { Account, ClientOptions, DocconvClient, JobList, JobStatus, Transaction, UsageRow } from './client';
export {
  changePassword,
  createKey,
  deactivateKey,
  endSession,
  listKeys,
  listSessions,
  login,
  logout,
  refresh,
  signup,
} from './auth';
export type { CreateKeyOptions, Credentials, IssuedKey, KeyInfo, Scope, Session, SessionInfo } from './auth';
export {
  confirm,
  convert,
  downloadConverted,
  downloadConvertedFile,
  downloadFile,
  downloadMarkdown,
  downloadStructured,
  downloadZip,
  FINISHED_STATUSES,
  uploadFiles,
} from './jobs';
export { waitForJob } from './wait';
export { allChunks, listChunks } from './chunks';
export type { Chunk, ChunkList, ChunkOptions } from './chunks';
export type { WaitOptions } from './wait';
export type {
  ChargeOptions,
  Confirmation,
  Conversion,
  ConversionFormat,
  DownloadedFile,
  DownloadFormat,
  OcrEngine,
  OcrModel,
  PageFurniture,
  HtmlContent,
  StructuredResult,
  UploadFile,
  UploadOptions,
} from './jobs';
export { streamJobEvents } from './events';
export type { DeliveredPage, JobEvent, JobEventSnapshot, StreamJobEventsOptions } from './events';
export { checkoutPoints, startCheckout } from './payments';
export type { Checkout, CheckoutOptions, Payment, PaymentOffer } from './payments';
export { conversionPrice } from './pricing';
export type { Pricing } from './pricing';
export { DocconvError } from './errors';
export type { ClientErrorCode, FieldError, Problem } from './errors';
export { formatUsd, normaliseJob, normalisePreview } from './normalize';
export type { Cost, Job, ReceivedJob, ReceivedPreview, UploadPreview } from './normalize';
export type { components, paths } from './schema';
