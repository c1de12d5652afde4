import { parentPort, workerData } from 'node:worker_threads';
import { answerFromThread } from '@docconv/contracts';
import { readMarkdown } from '@docconv/model';
import { renderDocx } from './render-docx';
import { renderHwpx } from './render-hwpx';
import { renderPptx } from './render-pptx';
import { renderXlsxBasic } from './render-xlsx-basic';
import type { RenderRequest } from './render-in-thread';

/** Reads and renders one file off the caller's event loop and posts its bytes (or the error's message) back. */
if (parentPort) {
  const port = parentPort;
  const request = workerData as RenderRequest;
  const { format, title } = request;
  const images = new Map(Object.entries(request.images ?? {}));
  const render = (): Promise<Buffer> => {
    const document = 'document' in request ? request.document : readMarkdown(request.markdown, title);
    switch (format) {
      case 'docx':
        return renderDocx(document, { title, images });
      case 'pptx':
        return renderPptx(document, { title, images });
      case 'hwpx':
        return renderHwpx(document, { title, images });
      case 'xlsx_basic':
        return renderXlsxBasic(document, { title });
    }
  };
  answerFromThread(port, render);
}
