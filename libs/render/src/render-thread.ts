import { parentPort, workerData } from 'node:worker_threads';
import { renderDocx } from './render-docx';
import { renderPptx } from './render-pptx';
import { renderXlsxBasic } from './render-xlsx-basic';
import type { RenderRequest } from './render-in-thread';

/** Renders one file off the caller's event loop and posts its bytes (or the error's message) back. */
if (parentPort) {
  const port = parentPort;
  const { format, markdown, title } = workerData as RenderRequest;
  const render =
    format === 'docx'
      ? renderDocx(markdown, { title })
      : format === 'pptx'
        ? renderPptx(markdown, { title })
        : renderXlsxBasic(markdown, { title });
  render.then(
    (bytes) => port.postMessage({ ok: true, bytes }),
    (error: unknown) =>
      port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
}
