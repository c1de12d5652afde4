import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import PDFDocument from 'pdfkit';

export const BENCH_DATA = resolve('.data', 'bench');

/** Secrets for an in-process API when the stack runner did not provide them. */
export function benchEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString('hex'),
    FILE_URL_SECRET: process.env.FILE_URL_SECRET ?? randomBytes(32).toString('hex'),
    STORAGE_DIR: process.env.STORAGE_DIR ?? join(BENCH_DATA, 'storage'),
    REDIS_PREFIX: `bench-${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'warn',
  };
}

/** A text PDF of `pages` pages, generated once and kept under .data/bench. */
export async function textPdf(pages: number): Promise<string> {
  mkdirSync(BENCH_DATA, { recursive: true });
  const path = join(BENCH_DATA, `text-${pages}.pdf`);
  if (existsSync(path)) return path;
  const chunks: Buffer[] = [];
  await new Promise<void>((done, fail) => {
    const doc = new PDFDocument({ autoFirstPage: false, compress: true });
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => done());
    doc.on('error', fail);
    for (let n = 1; n <= pages; n++) {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(11).text(`Page ${n}. ${'The quick brown fox jumps over the lazy dog. '.repeat(20)}`);
    }
    doc.end();
  });
  writeFileSync(path, Buffer.concat(chunks));
  return path;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function table(title: string, rows: Record<string, string | number>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [
    `\n${title}`,
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => String(r[c])))),
  ].join('\n');
}

export function readBytes(path: string): Buffer {
  return readFileSync(path);
}
