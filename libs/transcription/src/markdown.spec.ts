import { transcriptDocument, transcriptMarkdown } from './markdown';

describe('transcriptDocument and its Markdown', () => {
  it('writes a heading, the language and one timed paragraph per segment', () => {
    const markdown = transcriptMarkdown('Interview.mp3', {
      language: 'en',
      segments: [
        { start: 0, end: 4.2, text: ' Hello there.' },
        { start: 65.9, end: 70, text: 'Second\nline' },
      ],
    });

    expect(markdown).toBe('## Interview.mp3\n\nLanguage: en\n\n[00:00] Hello there.\n\n[01:05] Second line\n');
  });

  it('switches to hours from the first hour on', () => {
    const markdown = transcriptMarkdown('Long', {
      language: 'ko',
      segments: [
        { start: 3599.99, end: 3600.5, text: 'before' },
        { start: 3600, end: 3605, text: 'after' },
        { start: 36_000 + 125, end: 36_130, text: 'ten hours in' },
      ],
    });

    expect(markdown).toContain('[59:59] before');
    expect(markdown).toContain('[1:00:00] after');
    expect(markdown).toContain('[10:02:05] ten hours in');
  });

  it('says so when no speech was recognised', () => {
    const empty = transcriptMarkdown('Silence', { language: 'en', segments: [] });
    const blank = transcriptMarkdown('Silence', { language: 'en', segments: [{ start: 0, end: 3, text: '  ' }] });

    expect(empty).toBe('## Silence\n\nLanguage: en\n\nNo speech was recognised in this recording.\n');
    expect(blank).toBe(empty);
  });

  it('builds a transcript block per segment, with when it was said', () => {
    const document = transcriptDocument('talk.mp3', {
      language: 'en',
      note: 'Heard by an English-only model.',
      segments: [
        { start: 1.5, end: 3.25, text: ' One\ttwo ' },
        { start: 3.25, end: 4, text: ' ' },
      ],
    });

    expect(document.blocks).toEqual([
      { type: 'heading', level: 2, content: [{ kind: 'text', text: 'talk.mp3' }], from: { file: 'talk.mp3' } },
      { type: 'paragraph', content: [{ kind: 'text', text: 'Language: en' }], from: { file: 'talk.mp3' } },
      {
        type: 'paragraph',
        quote: true,
        content: [{ kind: 'text', text: 'Heard by an English-only model.' }],
        from: { file: 'talk.mp3' },
      },
      {
        type: 'transcript',
        content: [{ kind: 'text', text: 'One two' }],
        from: { file: 'talk.mp3', seconds: [1.5, 3.25] },
      },
    ]);
  });

  it('keeps a title with line breaks on the heading line', () => {
    expect(transcriptMarkdown('Part 1\nPart 2', { language: 'de', segments: [] })).toMatch(/^## Part 1 Part 2\n/);
  });
});
