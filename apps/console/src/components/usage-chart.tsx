import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { UsageRow } from '@docconv/client';
import { count } from '../format';
import { t } from '../i18n';
import { DataTable } from './data-table';

/**
 * Requests and points spent per UTC day. The canvas is for the eye; the same figures are in a
 * table beneath it for screen readers and for anyone who wants the numbers.
 */
export function UsageChart({ rows }: { rows: UsageRow[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const days = rows.map((r) => Date.parse(`${r.day}T00:00:00Z`) / 1000);
    const bars = uPlot.paths.bars?.({ size: [0.6, 24] });
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, requests: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          {},
          { scale: 'requests', label: t('account.requests') },
          { scale: 'points', label: t('account.pointsSpent'), side: 1, grid: { show: false } },
        ],
        series: [
          {},
          { label: t('account.requests'), scale: 'requests', stroke: '#2563eb', fill: '#2563eb55', paths: bars },
          { label: t('account.pointsSpent'), scale: 'points', stroke: '#c2410c', width: 2, points: { show: true } },
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
