/**
 * The TypeScript SDK of the document conversion service: a typed client generated from the
 * service's OpenAPI document, and helpers for the whole flow (upload → confirm → wait or
 * follow live → download → convert) and for accounts and keys. This is the Node entry: the
 * browser entry plus an `uploadFiles` that also reads paths on disk.
 */
export { uploadFiles } from './node-upload';
export type { UploadInput } from './node-upload';
export * from './browser';
