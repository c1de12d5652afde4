import { resolve } from 'node:path';
import { filesUnder, importClosure } from './import-closure';
import { API_ENTRY, workerOnlyFolders } from './worker-only';

/**
 * `node dist/tools/closure/main.js [entry]`: what a process loads from its entry (the API's by
 * default): our files and lines by folder, the worker-only files among them, and the packages.
 */
function main(): void {
  const root = resolve(__dirname, ...(__dirname.includes('/dist/') ? ['..', '..', '..'] : ['..', '..']));
  const entry = process.argv[2] ?? API_ENTRY;
  const closure = importClosure(root, [entry]);
  const byFolder = new Map<string, number>();
  for (const file of closure.files) {
    const folder = file
      .split('/')
      .slice(0, file.startsWith('libs/documents/src/') ? 4 : 2)
      .join('/');
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  const out = [
    `${entry}: ${closure.files.length} files, ${closure.lines} lines, ${closure.packages.length} packages`,
    ...[...byFolder].map(([folder, files]) => `  ${folder}: ${files}`),
    `worker-only files: ${filesUnder(closure, workerOnlyFolders()).join(', ') || 'none'}`,
    `packages: ${closure.packages.join(', ')}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

main();
