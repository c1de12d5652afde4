import { makeZip, type ZipEntrySpec } from '../../../../../test/support/archives';

/**
 * PowerPoint packages written by hand, to control every part: a slide with shapes placed out of
 * reading order, a group, a placeholder placed by its layout and bulleted by its master, a
 * hidden shape, the slide number, speaker notes and a comment.
 */

export const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export function rels(list: [id: string, type: string, target: string, external?: boolean][]): string {
  return (
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    list
      .map(
        ([id, type, target, external]) =>
          `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"${external ? ' TargetMode="External"' : ''}/>`,
      )
      .join('') +
    '</Relationships>'
  );
}

export function xfrm(x: number, y: number): string {
  return `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="1000000" cy="500000"/></a:xfrm>`;
}

/** A shape: a placeholder (`ph`) or a text box at (x, y), with paragraphs given as raw `<a:p>` content. */
export function shape(paragraphs: string[], at?: [number, number], ph?: string): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="9" name="s"/><p:cNvSpPr/><p:nvPr>${ph ?? ''}</p:nvPr></p:nvSpPr>` +
    `<p:spPr>${at ? xfrm(at[0], at[1]) : ''}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>` +
    paragraphs.map((p) => `<a:p>${p}</a:p>`).join('') +
    '</p:txBody></p:sp>'
  );
}

export const run = (text: string, props = '') => `<a:r><a:rPr lang="en-US"${props}/><a:t>${text}</a:t></a:r>`;

export function deckEntries(): ZipEntrySpec[] {
  const slide =
    `<p:sld ${NS}><p:cSld><p:spTree>` +
    shape([run('Footer text')], [0, 6000000]) +
    // a group whose children are placed in its own coordinates: the lower child is listed first
    '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="20" name="g"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
    '<p:grpSpPr><a:xfrm><a:off x="0" y="5000000"/><a:ext cx="2000000" cy="800000"/>' +
    '<a:chOff x="0" y="0"/><a:chExt cx="4000000" cy="1600000"/></a:xfrm></p:grpSpPr>' +
    shape([run('Grouped lower')], [0, 1000000]) +
    shape([run('Grouped upper')], [0, 0]) +
    '</p:grpSp>' +
    shape([run('Right column')], [5000000, 1500000]) +
    shape([run('Left column')], [500000, 1520000]) +
    // body placeholder without a position of its own: the layout places it; the master gives it bullets
    shape(
      [
        run('Inherited bullet'),
        `<a:pPr lvl="1"/>${run('Second level')}`,
        `<a:pPr><a:buNone/></a:pPr>${run('Plain ')}${run('bold', ' b="1"')}${run(' and ')}` +
          `<a:r><a:rPr lang="en-US"><a:hlinkClick r:id="rId9"/></a:rPr><a:t>a link</a:t></a:r>`,
      ],
      undefined,
      '<p:ph idx="1"/>',
    ) +
    shape([run('Quarterly *review*')], undefined, '<p:ph type="title"/>') +
    shape([run('7')], undefined, '<p:ph type="sldNum" idx="12"/>') +
    shape([run('Hidden note')], [0, 0]).replace('name="s"', 'name="s" hidden="1"') +
    '</p:spTree></p:cSld></p:sld>';
  const layout =
    `<p:sldLayout ${NS}><p:cSld><p:spTree>` +
    shape([], [500000, 300000], '<p:ph type="title"/>') +
    shape([], [500000, 2500000], '<p:ph idx="1"/>') +
    '</p:spTree></p:cSld></p:sldLayout>';
  const master =
    `<p:sldMaster ${NS}><p:cSld><p:spTree>` +
    shape([], [500000, 300000], '<p:ph type="title"/>') +
    shape([], [500000, 2500000], '<p:ph type="body" idx="1"/>') +
    '</p:spTree></p:cSld><p:txStyles><p:titleStyle/><p:bodyStyle>' +
    '<a:lvl1pPr><a:buChar char="•"/></a:lvl1pPr><a:lvl2pPr><a:buChar char="–"/></a:lvl2pPr>' +
    '</p:bodyStyle><p:otherStyle/></p:txStyles></p:sldMaster>';
  const notes =
    `<p:notes ${NS}><p:cSld><p:spTree>` +
    shape([], undefined, '<p:ph type="sldImg"/>') +
    shape([run('Say hello')], undefined, '<p:ph type="body" idx="1"/>') +
    '</p:spTree></p:cSld></p:notes>';
  return [
    {
      name: 'ppt/presentation.xml',
      data: `<p:presentation ${NS}><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: rels([
        ['rId2', 'slide', 'slides/slide1.xml'],
        ['rId3', 'commentAuthors', 'commentAuthors.xml'],
      ]),
    },
    { name: 'ppt/slides/slide1.xml', data: slide },
    {
      name: 'ppt/slides/_rels/slide1.xml.rels',
      data: rels([
        ['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
        ['rId2', 'notesSlide', '../notesSlides/notesSlide1.xml'],
        ['rId3', 'comments', '../comments/comment1.xml'],
        ['rId9', 'hyperlink', 'https://example.com/x', true],
      ]),
    },
    { name: 'ppt/slideLayouts/slideLayout1.xml', data: layout },
    {
      name: 'ppt/slideLayouts/_rels/slideLayout1.xml.rels',
      data: rels([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]),
    },
    { name: 'ppt/slideMasters/slideMaster1.xml', data: master },
    { name: 'ppt/notesSlides/notesSlide1.xml', data: notes },
    {
      name: 'ppt/commentAuthors.xml',
      data: `<p:cmAuthorLst ${NS}><p:cmAuthor id="3" name="Ann Lee" initials="AL" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>`,
    },
    {
      name: 'ppt/comments/comment1.xml',
      data:
        `<p:cmLst ${NS}><p:cm authorId="3" dt="2024-05-01T10:00:00" idx="1">` +
        '<p:pos x="10" y="10"/><p:text>Check this figure</p:text></p:cm></p:cmLst>',
    },
  ];
}

export function handBuiltDeck(): Buffer {
  return makeZip(deckEntries());
}
