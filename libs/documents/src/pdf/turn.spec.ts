import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Box } from '@docconv/model';
import { extractPdf } from './extract-pdf';
import { pdfBytes } from './testing/pdf-bytes';
import { pageTurn, turnedRect, turnedTransform, unturnedBox } from './turn';

const item = (str: string, transform: number[]) => ({ str, transform });

describe('sideways pages', () => {
  it('are the pages most of whose characters run one way up or down the paper', () => {
    const up = [0, 10, -10, 0, 100, 100];
    const down = [0, -10, 10, 0, 100, 700];
    const upright = [10, 0, 0, 10, 100, 100];
    expect(pageTurn([item('A table set sideways', up), item('12', upright)])).toBe('up');
    expect(pageTurn([item('A table set sideways', down), item('p. 12', upright)])).toBe('down');
    // A turned column head or a margin stamp does not turn a page of upright text.
    expect(pageTurn([item('Turned head', up), item('The body of the page, upright', upright)])).toBeUndefined();
    expect(pageTurn([])).toBeUndefined();
  });

  it.each(['up', 'down'] as const)('turn text upright and boxes back into the page, reading %s', (turn) => {
    const view = [0, 0, 600, 800];
    // Text running up the page reads left to right once turned: its matrix becomes upright.
    const matrix = turn === 'up' ? [0, 10, -10, 0, 300, 200] : [0, -10, 10, 0, 300, 200];
    const [a, b, c, d] = turnedTransform(matrix, turn, view);
    expect([a, b, c, d].map((v) => v + 0)).toEqual([10, 0, 0, 10]); // + 0: no negative zeros
    // A box taken into the turned page (800 wide, 600 tall) and back is where it was.
    const rect = { x0: 50, y0: 100, x1: 250, y1: 140 };
    const turned = turnedRect(rect, turn, 600, 800);
    expect(turned.x1 - turned.x0).toBe(40);
    expect(turned.y1 - turned.y0).toBe(200);
    expect(unturnedBox([turned.x0, turned.y0, turned.x1, turned.y1], turn, 800, 600)).toEqual([50, 100, 250, 140]);
  });

  describe('in a PDF', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'docconv-turn-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    // A portrait page whose table is printed turned a quarter anticlockwise (reading from the foot
    // of the page up) or clockwise (reading down).
    it.each([
      ['up', -90, [-842, 0], [100, 842 - 460, 160, 842 - 60]],
      ['down', 90, [0, -595], [595 - 160, 60, 595 - 100, 460]],
    ])(
      'are read turned upright, their tables row by row, their boxes in the page as it stands (reading %s)',
      async (turn, angle, shift, where) => {
        const bytes = await pdfBytes((doc) => {
          doc.addPage({ size: 'A4', margin: 0 });
          doc.save();
          doc.rotate(angle, { origin: [0, 0] }).translate(...(shift as [number, number]));
          // In this frame the page is 842 wide and 595 tall, upright.
          doc.font('Helvetica').fontSize(10).text('Enquiries by topic and year.', 60, 60, { lineBreak: false });
          const [x0, x1, x2, x3] = [60, 260, 360, 460];
          const ys = [100, 120, 140, 160];
          doc.lineWidth(0.5);
          for (const y of ys) doc.moveTo(x0, y).lineTo(x3, y).stroke();
          for (const x of [x0, x1, x2, x3]) doc.moveTo(x, ys[0]).lineTo(x, ys[3]).stroke();
          const rows = [
            ['Topic', '2024', '2025'],
            ['Air passengers rights', '1.726', '1.801'],
            ['Customs and taxation', '556', '612'],
          ];
          rows.forEach((row, r) =>
            row.forEach((text, c) => doc.text(text, [x0, x1, x2][c] + 5, ys[r] + 5, { lineBreak: false })),
          );
          doc.restore();
        });
        const path = join(dir, `sideways-${turn}.pdf`);
        await writeFile(path, bytes);

        const { markdown, document, placed } = await extractPdf(path, 'sideways.pdf', () => undefined);
        expect(markdown).toBe(
          [
            'Enquiries by topic and year.',
            '',
            '| Topic | 2024 | 2025 |',
            '| --- | --- | --- |',
            '| Air passengers rights | 1.726 | 1.801 |',
            '| Customs and taxation | 556 | 612 |',
            '',
          ].join('\n'),
        );
        // Reading up, the table stands 60–460 pt up from the foot of the portrait page and 100–160 pt from its left edge.
        const table = document!.blocks.find((block) => block.type === 'table')!;
        expect((table.from.box as Box).map(Math.round)).toEqual(where);
        expect([placed![0].width, placed![0].height].map(Math.round)).toEqual([595, 842]);
      },
    );
  });
});
