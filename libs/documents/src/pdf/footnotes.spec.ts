import { layoutDocument } from './layout-document';
import { run, page } from './testing/text-runs';

/** Body text that makes 10 pt the body size. */
const body = (from: number, count: number, x = 40) =>
  Array.from({ length: count }, (_, i) => run(`Body line ${i} of running text on the page.`, x, from + i * 12));

describe('PDF footnotes', () => {
  it('turns a raised marker and the note at the foot into a Markdown footnote', () => {
    const markdown = layoutDocument([
      page([
        ...body(100, 6),
        run('The survey', 40, 200),
        run('1', 90, 196, 6),
        run(' found what it found.', 93, 200),
        run('1', 40, 700, 5),
        run('Survey of 2026, second edition,', 44, 703, 8),
        run('published in print.', 40, 712, 8),
      ]),
    ]);
    expect(markdown).toContain('The survey[^1] found what it found.');
    expect(markdown).toContain('[^1]: Survey of 2026, second edition, published in print.');
  });

  it('leaves a note as text when nothing on the page points to it', () => {
    const markdown = layoutDocument([
      page([...body(100, 6), run('2', 40, 700, 5), run('An orphan note.', 44, 703, 8)]),
    ]);
    expect(markdown).not.toContain('[^');
    expect(markdown).toContain('An orphan note.');
  });

  it('links each marker to the nearest note of that marker below it, in its own column', () => {
    const column = (x: number, word: string, note: string) => [
      ...body(100, 4, x),
      run(word, x, 160),
      run('a', x + 20, 156, 6),
      run('a', x, 190, 5),
      run(note, x + 4, 193, 8),
      ...body(220, 4, x),
    ];
    const markdown = layoutDocument([
      page([...column(40, 'Left', 'Left note.'), ...column(330, 'Right', 'Right note.')]),
    ]);

    const definitions = new Map([...markdown.matchAll(/\[\^(\d+)\]: (.*)/g)].map((m) => [m[2], m[1]]));
    expect(markdown).toContain(`Left[^${definitions.get('Left note.')}]`);
    expect(markdown).toContain(`Right[^${definitions.get('Right note.')}]`);
    expect(definitions.get('Left note.')).not.toBe(definitions.get('Right note.'));
  });
});
