import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { UsageRow } from '@docconv/client';
import { count } from '../format';
import { currentLanguage, t } from '../i18n';
import { DataTable } from './data-table';

const HALF_DAY_SECONDS = 12 * 3600;

/** A day of the chart (seconds at its UTC midnight) as the reader writes a date: "Jan 5", "1월 5일". */
function dayLabel(seconds: number): string {
  return new Intl.DateTimeFormat(currentLanguage(), { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(seconds * 1000),
  );
}

/**
 * Requests and points spent per UTC day. The canvas is for the eye; the same figures are in a
 * table beneath it for screen readers and for anyone who wants the numbers. Each day's bar stands
 * on its day with half a day of room either side, so the first and last (today) are drawn whole;
 * the legend shows the day pointed at, else the last one.
 */
export function UsageChart({ rows }: { rows: UsageRow[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const days = rows.map((r) => Date.parse(`${r.day}T00:00:00Z`) / 1000);
    const bars = uPlot.paths.bars?.({ size: [0.6, 24] });
    const last = rows.length - 1;
    /** The legend's value of a series: the day pointed at, else the last day (uPlot's own says "--"). */
    const legend =
      (format: (value: number) => string) =>
      (u: uPlot, _value: number | null, series: number, index: number | null): string => {
        const value = u.data[series][index ?? last];
        return value === null || value === undefined ? '' : format(value);
      };
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: {
          x: { time: true, range: (_u, min, max) => [min - HALF_DAY_SECONDS, max + HALF_DAY_SECONDS] },
          // A tenth of room above the tallest bar, so that it does not touch the top.
          requests: { range: (_u, _min, max) => [0, Math.ceil(Math.max(1, max) * 1.1)] },
        },
        axes: [
          {
            incrs: [1, 2, 3, 7, 14, 30].map((days) => days * 2 * HALF_DAY_SECONDS),
            values: (_u, splits) => splits.map(dayLabel),
          },
          { scale: 'requests', label: t('account.requests') },
          { scale: 'points', label: t('account.pointsSpent'), side: 1, grid: { show: false } },
        ],
        series: [
          { label: t('account.day'), value: legend(dayLabel) },
          {
            label: t('account.requests'),
            scale: 'requests',
            stroke: '#2563eb',
            fill: '#2563eb55',
            paths: bars,
            points: { show: false },
            value: legend(count),
          },
          {
            label: t('account.pointsSpent'),
            scale: 'points',
            stroke: '#c2410c',
            width: 2,
            points: { show: true },
            value: legend(count),
          },
        ],
      },
      [days, rows.map((r) => r.requests), rows.map((r) => r.points_spent)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [rows]);
  return (
    <figure class="usage">
      <div ref={box} aria-hidden="true" />
      <figcaption>{t('account.usageCaption')}</figcaption>
      <details>
        <summary>{t('account.usageTable')}</summary>
        <DataTable
          label={t('account.usageTable')}
          columns={[t('account.day'), t('account.requests'), t('account.pointsSpent')]}
        >
          {rows.map((r) => (
            <tr key={r.day}>
              <td>{r.day}</td>
              <td>{count(r.requests)}</td>
              <td>{count(r.points_spent)}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
