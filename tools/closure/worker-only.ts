import WORKER_ONLY from './worker-only.json';

/** The API's entry: what `node dist/apps/api/src/main.js` loads. */
export const API_ENTRY = 'apps/api/src/main.ts';

/** The entries of the API's side: the API and the admin CLI, which load nothing worker-only. */
export const API_SIDE_ENTRIES = [API_ENTRY, 'apps/admin/src/main.ts'];

/** The folders and files (relative to the repository root) the API side must never load. */
export function workerOnlyFolders(): string[] {
  return [
    ...WORKER_ONLY.libs.map((lib) => `libs/${lib}/`),
    ...WORKER_ONLY.documents.map((path) => `libs/documents/src/${path}`),
  ];
}
