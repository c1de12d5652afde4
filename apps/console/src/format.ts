import { formatUsd } from '@docconv/client';
import { currentLanguage, t, tn } from './i18n';

/** Points are milli-USD: "1,234 points ($1.234)". */
export function points(value: number): string {
  return `${new Intl.NumberFormat(currentLanguage()).format(value)} (${formatUsd(value)})`;
}

export function count(value: number): string {
  return new Intl.NumberFormat(currentLanguage()).format(value);
}

/** A price in points as a count and in dollars: "1 point ($0.001)", "1,234 points ($1.234)". */
export function pointsPrice(value: number): string {
  return `${tn('unit.points', value)} (${formatUsd(value)})`;
}

/** What confirming a quote of `value` points says: its price, or that it is free. */
export function confirmLabel(value: number): string {
  return value === 0 ? t('quote.confirmFree') : t('quote.confirm', { price: formatUsd(value) });
}

/** A job's title in the reader's words: the service titles a job of several files `a.pdf (+2 more)` (libs/jobs jobTitle). */
export function jobTitle(title: string): string {
  const more = /^(.+) \(\+(\d+) more\)$/s.exec(title);
  return more ? t('job.titleMore', { first: more[1], n: count(Number(more[2])) }) : title;
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${(value / 1024 / 1024).toFixed(1)} MB`;
}

/** Saves bytes the browser holds as a file the user downloads. */
export function saveFile(name: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
