import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate, findInputs, parseOptions } from './main';

let set: string;

beforeAll(async () => {
  set = await mkdtemp(join(tmpdir(), 'evalset-'));
  await mkdir(join(set, 'markdown'));
  await mkdir(join(set, 'audio'));
  await mkdir(join(set, 'docx'));
  const files: Record<string, string> = {
    'markdown/report.md': '# Report\n\nThe **quick** brown fox.\n\n| Name | Qty |\n|---|---|\n| apple | 3 |\n',
    'markdown/report.ref.md': 'Report\n\nThe quick brown fox.\n\n| Name | Qty |\n| - | - |\n| apple | 3 |\n',
    'markdown/report.ref.html':
      '<html><head><meta name="generator" content="Docling HTML Serializer"/></head><body>' +
      '<table><tr><th>Name</th><th>Qty</th></tr><tr><td>apple</td><td>3</td></tr></table></body></html>',
    'markdown/report.tests.jsonl': [
      JSON.stringify({ pdf: 'r', page: 1, id: 'p', type: 'present', text: 'quick brown fox' }),
      JSON.stringify({ pdf: 'r', page: 1, id: 't', type: 'table', cell: '3', left: 'apple', top_heading: 'Qty' }),
      JSON.stringify({ pdf: 'r', page: 1, id: 'm', type: 'math', math: 'x^2' }),
    ].join('\n'),
    'markdown/report.checks.json': JSON.stringify({ must_include: ['fox'], must_not_include: ['wolf'] }),
    'markdown/broken.md': 'text',
    'markdown/broken.checks.json': '{ not json',
    'audio/talk.mp3': 'not really audio',
    'audio/talk.ref.txt': 'hello world',
    'docx/letter.docx': 'not a zip',
    'docx/letter.ref.md': '# Letter',
    'docx/letter.ref.txt': 'Letter',
    // A tables-only reference (as the ICDAR 2013 structure annotations are given): two tables, no page text.
    'markdown/tables.md':
      'Retail in Europe, a report with much more text than its tables.\n\n' +
      '| | GNP | Outlets |\n|---|---|---|\n| Germany | 27.5 | 415.3 |\n| France | 25.0 | 343.4 |\n\n' +
      '| Names | Share |\n|---|---|\n| Casino 24.8 | |\n',
    'markdown/tables.ref.html':
      '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="reference-scope" content="tables"></head><body>' +
      '<table><tr><td></td><td>GNP</td><td>Outlets</td></tr><tr><td>Germany</td><td>27.5</td><td>415.3</td></tr>' +
      '<tr><td>France</td><td>25.0</td><td>343.4</td></tr></table>' +
      '<table><tr><td>Names</td><td>Share</td></tr><tr><td>Casino</td><td>24.8</td></tr></table></body></html>',
  };
  for (const [name, content] of Object.entries(files)) await writeFile(join(set, name), content);
});

afterAll(async () => {
  await rm(set, { recursive: true, force: true });
});

describe('parseOptions', () => {
  it('accepts a valid command line and applies defaults', () => {
    expect(parseOptions(['--', '--set', set, '--out', join(set, 'r.json')], '/repo')).toEqual({
      set,
      model: 'premium',
      engine: null,
      out: join(set, 'r.json'),
    });
    expect(parseOptions(['--set', set, '--model', 'basic', '--engine', 'tesseract'], '/repo')).toMatchObject({
      model: 'basic',
      engine: 'tesseract',
      out: '/repo/test-output/eval-report.json',
    });
    expect(parseOptions(['--help'], '/repo')).toBe('help');
  });

  it('explains what is wrong with a bad command line', () => {
    expect(() => parseOptions(['--set', set, '--model', 'gold'], '/repo')).toThrow(
      '--model must be one of basic, premium; got "gold".',
    );
    expect(() => parseOptions(['--set', set, '--engine', 'paddle'], '/repo')).toThrow('--engine must be one of');
    expect(() => parseOptions(['--set', set, '--model', 'basic', '--engine', 'rapidocr'], '/repo')).toThrow(
      'premium model only',
    );
    expect(() => parseOptions(['--set', join(set, 'nope')], '/repo')).toThrow('is not a folder');
    expect(() => parseOptions([], '/nonexistent-root')).toThrow('(the default; pass --set <dir>)');
    expect(() => parseOptions(['--set', set, '--out', join(set, 'no/such/r.json')], '/repo')).toThrow('does not exist');
    expect(() => parseOptions(['--set', set, '--bogus'], '/repo')).toThrow("Unknown option '--bogus'");
    expect(() => parseOptions(['--set', set, 'extra'], '/repo')).toThrow('extra');
  });
});

describe('findInputs', () => {
  it('lists the inputs of every format folder and leaves references out', async () => {
    const inputs = await findInputs(set);
    expect(inputs.map((i) => i.relative)).toEqual([
      'audio/talk.mp3',
      'docx/letter.docx',
      'markdown/broken.md',
      'markdown/report.md',
      'markdown/tables.md',
    ]);
    expect(inputs[3].stem).toBe(join(set, 'markdown', 'report'));
  });
});

describe('evaluate', () => {
  it('scores an input against all of its references', async () => {
    const [, , , report] = await findInputs(set);
    const item = await evaluate(report, set);
    expect(item.status).toBe('scored');
    expect(item.errors).toEqual([]);
    expect(item.references).toHaveLength(4);
    // The output's `# Report` is a heading the reference does not have: heading structure 0.
    expect(item.metrics.docling).toEqual({
      similarity: 1,
      nid: 1,
      headings: 0,
      teds: 1,
      tableExact: 1,
      cellF1: 1,
      adjacencyF1: 1,
      tableRecall: 1,
      tablePrecision: 1,
    });
    expect(item.details?.headings).toMatchObject({ predicted: 1, reference: 0, precision: 0 });
    expect(item.metrics.independent).toEqual({ tests: 1, checks: 1 });
    expect(item.details?.tests?.map((t) => t.status)).toEqual(['passed', 'passed', 'skipped']);
    expect(item.seconds).toBeGreaterThanOrEqual(item.extractSeconds);
    expect(item.hygiene?.counts).toEqual({
      controlCharacters: 0,
      replacementCharacters: 0,
      privateUse: 0,
      literalEmphasis: 0,
      pageNumberLines: 0,
    });
  });

  it('reports an unreadable reference without failing the input', async () => {
    const [, , broken] = await findInputs(set);
    const item = await evaluate(broken, set);
    expect(item.status).toBe('scored');
    expect(item.errors[0]).toMatch(/^broken\.checks\.json: /);
    expect(item.metrics.independent.checks).toBeUndefined();
  });

  it('scores 0 an input whose extraction throws, and records why', async () => {
    const [, letter] = await findInputs(set);
    const item = await evaluate(letter, set);
    expect(item.status).toBe('failed');
    expect(item.errors[0]).toContain('letter.docx');
    expect(item.metrics).toEqual({
      docling: { similarity: 0, nid: 0, headings: 0 },
      independent: { similarity: 0, nid: 0 },
    });
    expect(item.hygiene).toBeUndefined();
  });

  it('scores the tables of a tables-only reference, and no text similarity against it', async () => {
    const tables = (await findInputs(set))[4];
    const item = await evaluate(tables, set);
    expect(item.status).toBe('scored');
    expect(item.metrics.docling).toEqual({});
    const { independent } = item.metrics;
    expect(Object.keys(independent).sort()).toEqual(
      ['adjacencyF1', 'cellF1', 'tableExact', 'tablePrecision', 'tableRecall', 'teds'].sort(),
    );
    // The first table is read exactly; the second merges two cells into one: half its cells and a third of its adjacencies found.
    expect(item.details?.tables?.independent?.read?.tables.map((t) => t.exact)).toEqual([true, false]);
    expect(independent.tableExact).toBe(0.5);
    expect(independent.cellF1).toBeCloseTo((1 + (2 * 2) / (3 + 4)) / 2, 10);
    expect(independent.tableRecall).toBe(1);
    expect(independent.tablePrecision).toBe(1);
  });

  it('skips audio, which this worker cannot transcribe, instead of scoring it 0', async () => {
    const [talk] = await findInputs(set);
    const item = await evaluate(talk, set);
    expect(item.status).toBe('skipped');
    expect(item.metrics).toEqual({ docling: {}, independent: {} });
    expect(item.errors[0]).toMatch(/^not scored: /);
  });
});

describe('evaluate against a Hancom Office export', () => {
  let hancomSet: string;
  const line = (top: number, text: string): string =>
    `<div class="hls" style="left:0mm;top:${top}mm;"><span class="hrt">${text}</span></div>`;
  const cell = (left: number, top: number, text: string): string =>
    `<div class="hce" style="left:${left}mm;top:${top}mm;width:40mm;height:5mm;"><div class="hcD"><div class="hcI">${line(0, text)}</div></div></div>`;

  beforeAll(async () => {
    hancomSet = await mkdtemp(join(tmpdir(), 'evalset-hancom-'));
    await mkdir(join(hancomSet, 'markdown'));
    const html =
      '<html><body><div class="hpa" style="width:210mm;height:297mm;">' +
      `<div class="hcD" style="left:30mm;top:35mm;"><div class="hcI">${line(0, '1. 목적')}${line(60, '2. 범위')}</div></div>` +
      '<div class="htG" style="left:30mm;top:50mm;"><div class="htb" style="left:0mm;top:0mm;">' +
      `${cell(0, 0, '구분')}${cell(40, 0, '값')}${cell(0, 5, '길이')}${cell(40, 5, '47.2 m')}</div></div>` +
      '<div class="htG" style="left:30mm;top:70mm;"><div class="htb" style="left:0mm;top:0mm;">' +
      `${cell(0, 0, '')}${cell(40, 0, '')}</div></div>` +
      '</div></body></html>';
    const files: Record<string, string> = {
      'markdown/release.md': '1. 목적\n\n| 구분 | 값 |\n| --- | --- |\n| 길이 | 47.2 m |\n\n2. 범위\n',
      'markdown/release.ref.html': html,
      // The tags stripped in source order: the floating tables come last.
      'markdown/release.ref.txt': '1. 목적\n2. 범위\n구분\n값\n길이\n47.2 m\n',
    };
    for (const [name, content] of Object.entries(files)) await writeFile(join(hancomSet, name), content);
  });

  afterAll(async () => {
    await rm(hancomSet, { recursive: true, force: true });
  });

  it('scores the text in visual order, the tables with text, their exact structure and the numbering', async () => {
    const [input] = await findInputs(hancomSet);
    const outputs = new Map<string, string>();
    const item = await evaluate(input, hancomSet, undefined, undefined, outputs);
    expect(item.errors).toEqual([]);
    expect(outputs.get('markdown/release.md')).toContain('| 길이 | 47.2 m |');
    expect(item.metrics.independent).toMatchObject({ visualSimilarity: 1, visualNid: 1, teds: 1, tableExact: 1 });
    expect(item.metrics.independent.nid).toBeLessThan(1);
    // The all-empty grid is a placeholder: not a reference table.
    expect(item.details?.tables?.independent).toMatchObject({ scores: [1], structure: { counted: 1, matched: 1 } });
    expect(item.metrics.independent.numbering).toBe(1);
    expect(item.details?.numbering?.independent).toMatchObject({ reference: ['1.', '2.'], predicted: ['1.', '2.'] });
  });
});
