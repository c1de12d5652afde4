import { formatUsd } from '@docconv/client';
import { currentLanguage } from './i18n';

/** Points are milli-USD: "1,234 points ($1.234)". */
export function points(value: number): string {
  return `${new Intl.NumberFormat(currentLanguage()).format(value)} (${formatUsd(value)})`;
}

export function count(value: number): string {
  return new Intl.NumberFormat(currentLanguage()).format(value);
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
