/**
 * Uploads from paths on disk: the Node-only part of the SDK (the browser entry leaves it out).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DocconvClient } from './client';
import { uploadFiles as uploadFileList, type UploadFile, type UploadOptions } from './jobs';
import type { UploadPreview } from './normalize';

/** A file to upload: a path on disk, or any {@link UploadFile} (a File, a named Blob, a name and its bytes). */
export type UploadInput = string | UploadFile;

/** Reads a path into a name (its last segment) and its bytes; anything else is passed on as it is. */
async function fromDisk(input: UploadInput): Promise<UploadFile> {
  if (typeof input !== 'string') return input;
  return { name: basename(input), data: await readFile(input) };
}

/**
 * Uploads files (POST /api/v1/jobs/upload) and returns the cost preview of the new pending
 * job; nothing is charged until `confirm`. Paths are read from disk first; every other input
 * goes to the browser-safe `uploadFiles` of jobs.ts as it is.
 */
export async function uploadFiles(
  client: DocconvClient,
  inputs: readonly UploadInput[],
  options: UploadOptions = {},
): Promise<UploadPreview> {
  return uploadFileList(client, await Promise.all(inputs.map(fromDisk)), options);
}
