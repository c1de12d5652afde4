import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { heldSlots, runFolders } from '../libreoffice/testing/leftovers';
import { writeMarkdown } from '@docconv/model';
import sharp from 'sharp';
import { extractViaLibreOffice, readViaLibreOffice } from './extract-legacy';
import { countViaMetadata } from './inspect-legacy';
import { makeOdf } from './testing/odf-builder';

/**
 * These run LibreOffice (about 1–3 s a run): one conversion per format, and three more in
 * `beforeAll` that save the OpenDocument fixtures as DOC, XLS and PPT.
 */

let folder: string;
/** Run folders in the system's temporary folder before each test, so that a test sees what it left. */
let before: string[];
let server: Server;
let requests: string[];
let base: string;

const TEXT_BODY =
  '<text:h text:outline-level="1">Quarterly report</text:h>' +
  '<text:p>Sales grew in every region.</text:p>' +
  '<table:table table:name="T"><table:table-column table:number-columns-repeated="2"/>' +
  '<table:table-row><table:table-cell><text:p>Region</text:p></table:table-cell><table:table-cell><text:p>Sales</text:p></table:table-cell></table:table-row>' +
  '<table:table-row><table:table-cell><text:p>North</text:p></table:table-cell><table:table-cell><text:p>120</text:p></table:table-cell></table:table-row>' +
  '</table:table>';

const cell = (value: string | number): string =>
  typeof value === 'number'
    ? `<table:table-cell office:value-type="float" office:value="${value}"><text:p>${value}</text:p></table:table-cell>`
    : `<table:table-cell office:value-type="string"><text:p>${value}</text:p></table:table-cell>`;
const row = (...values: (string | number)[]): string =>
  `<table:table-row>${values.map(cell).join('')}</table:table-row>`;

const SPREADSHEET_BODY =
  `<table:table table:name="Figures">${row('Region', 'Sales')}${row('North', 120)}${row('South', 80)}</table:table>` +
  `<table:table table:name="Notes">${row('Checked by the auditor')}</table:table>`;

const slide = (name: string, title: string, text: string): string =>
  `<draw:page draw:name="${name}">` +
  `<draw:frame presentation:class="title" svg:x="1cm" svg:y="1cm" svg:width="20cm" svg:height="2cm"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame>` +
  `<draw:frame presentation:class="outline" svg:x="1cm" svg:y="4cm" svg:width="20cm" svg:height="10cm"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>` +
  '</draw:page>';

const PRESENTATION_BODY = slide('s1', 'Roadmap', 'Ship the reader') + slide('s2', 'Risks', 'Fonts differ');
const SLIDES_MARKDOWN = '## Slide 1\n\nRoadmap\n\nShip the reader\n\n## Slide 2\n\nRisks\n\nFonts differ\n';

/** Saves `bytes` as `name` in the fixture folder. */
async function fixture(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, bytes);
  return path;
}

/** Saves an OpenDocument fixture in a legacy format with LibreOffice itself (a profile of the test's own). */
function saveAs(path: string, format: 'doc' | 'xls' | 'ppt'): string {
  const profile = pathToFileURL(join(folder, 'profile')).href;
  execFileSync(
    'soffice',
    [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', format, '--outdir', folder, path],
    { stdio: 'ignore', timeout: 120_000 },
  );
  return path.replace(/\.\w+$/, `.${format}`);
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-legacy-spec-'));
  requests = [];
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.end('<html><body><p>Fetched from the network</p></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

beforeEach(async () => {
  before = await runFolders(tmpdir());
});

afterEach(async () => {
  expect((await runFolders(tmpdir())).filter((name) => !before.includes(name))).toEqual([]);
  expect(await heldSlots()).toEqual([]);
});

describe('extractViaLibreOffice', () => {
  it('reads an ODT, and no link in it reaches the network, even when the document asks for updates', async () => {
    const linked =
      `<text:section text:name="Remote"><text:section-source xlink:type="simple" xlink:href="${base}/section.html" text:filter-name="HTML (StarWriter)"/><text:p>Cached section text</text:p></text:section>` +
      `<text:p><draw:frame draw:name="Logo" svg:width="2cm" svg:height="2cm" text:anchor-type="as-char"><draw:image xlink:type="simple" xlink:href="${base}/logo.png" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`;
    const settings =
      '<config:config-item-set config:name="ooo:configuration-settings"><config:config-item config:name="LinkUpdateMode" config:type="short">2</config:config-item></config:config-item-set>';
    const odt = await fixture('report.odt', makeOdf({ type: 'text', body: TEXT_BODY + linked, settings }));
    const markdown = await extractViaLibreOffice(odt, 'odt', 'report.odt');
    expect(markdown).toContain('# Quarterly report');
    expect(markdown).toContain('Sales grew in every region.');
    expect(markdown).toMatch(/\| Region \| Sales \|\n\| -+ \| -+ \|\n\| North \| 120 \|/);
    expect(markdown).toContain('Cached section text');
    expect(markdown).not.toContain('Fetched from the network');
    expect(requests).toEqual([]);
  });

  it("takes an ODT's pictures out beside the result, as a DOCX file's are, when asked to", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    const picture =
      '<text:p>Our logo:</text:p><text:p><draw:frame draw:name="Logo" svg:width="2cm" svg:height="2cm" text:anchor-type="as-char">' +
      '<draw:image xlink:href="Pictures/logo.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>' +
      '<svg:desc>Red square logo</svg:desc></draw:frame></text:p>';
    const odt = await fixture(
      'logo.odt',
      makeOdf({
        type: 'text',
        body: TEXT_BODY + picture,
        extra: [{ name: 'Pictures/logo.png', data: png }],
      }),
    );
    const { document, images } = await readViaLibreOffice(odt, 'odt', 'logo.odt', undefined, 'images/');
    expect(images.map((image) => [image.name, image.mime])).toEqual([['images/image-1.png', 'image/png']]);
    expect(writeMarkdown(document)).toContain('![Red square logo](images/image-1.png)');
    // Without a place for pictures, the text says what was there.
    expect(await extractViaLibreOffice(odt, 'odt', 'logo.odt')).toContain('[Image: Red square logo]');
  });

  it('reads an ODS: each sheet and its table', async () => {
    const ods = await fixture('figures.ods', makeOdf({ type: 'spreadsheet', body: SPREADSHEET_BODY }));
    const markdown = await extractViaLibreOffice(ods, 'ods', 'figures.ods');
    expect(markdown).toContain('## Figures');
    expect(markdown).toMatch(/\| Region \| Sales \|\n\| -+ \| -+ \|\n\| North \| 120 \|\n\| South \| 80 \|/);
    expect(markdown).toContain('Checked by the auditor');
  });

  it('reads an ODP: each slide’s text under its own heading', async () => {
    const odp = await fixture('plan.odp', makeOdf({ type: 'presentation', body: PRESENTATION_BODY }));
    const markdown = await extractViaLibreOffice(odp, 'odp', 'plan.odp');
    // A hand-built package has no master page whose placeholders would make "Roadmap" a title.
    expect(markdown).toBe(SLIDES_MARKDOWN);
  });

  it('reads DOC, XLS and PPT files, and counts their pages from what they store', async () => {
    const doc = saveAs(await fixture('legacy-text.odt', makeOdf({ type: 'text', body: TEXT_BODY })), 'doc');
    const xls = saveAs(
      await fixture('legacy-book.ods', makeOdf({ type: 'spreadsheet', body: SPREADSHEET_BODY })),
      'xls',
    );
    const ppt = saveAs(
      await fixture('legacy-deck.odp', makeOdf({ type: 'presentation', body: PRESENTATION_BODY })),
      'ppt',
    );

    const word = await extractViaLibreOffice(doc, 'doc', 'report.doc');
    expect(word).toContain('# Quarterly report');
    expect(word).toMatch(/\| North \| 120 \|/);
    const excel = await extractViaLibreOffice(xls, 'xls', 'figures.xls');
    expect(excel).toMatch(/## Figures[\s\S]*\| South \| 80 \|[\s\S]*## Notes/);
    const powerPoint = await extractViaLibreOffice(ppt, 'ppt', 'plan.ppt');
    expect(powerPoint).toBe(SLIDES_MARKDOWN);

    expect(await countViaMetadata(doc, 'doc', 'report.doc')).toBe(1);
    expect(await countViaMetadata(xls, 'xls', 'figures.xls')).toBe(2);
    expect(await countViaMetadata(ppt, 'ppt', 'plan.ppt')).toBe(2);
  }, 120_000);

  it('reads an RTF', async () => {
    const rtf = await fixture(
      'memo.rtf',
      '{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}{\\info{\\title Memo}\\nofpages1}' +
        '\\pard\\b Memo to staff\\b0\\par Caf\\u233?s open at nine.\\par' +
        '\\trowd\\cellx2000\\cellx4000 Day\\cell Hours\\cell\\row\\trowd\\cellx2000\\cellx4000 Monday\\cell 9{\\endash}17\\cell\\row' +
        '\\pard After the table.\\par}',
    );
    const markdown = await extractViaLibreOffice(rtf, 'rtf', 'memo.rtf');
    expect(markdown).toContain('**Memo to staff**');
    expect(markdown).toContain('Cafés open at nine.');
    expect(markdown).toMatch(/\| Day \| Hours \|\n\| -+ \| -+ \|\n\| Monday \| 9–17 \|/);
    expect(markdown).toContain('After the table.');
  });
});
