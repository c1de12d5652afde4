import { makeTar, makeZip } from './archives';
import {
  makeBmp,
  makeDocx,
  makeHwp,
  makeHwpx,
  makeImage,
  makeMedia,
  makePdf,
  makePptx,
  makeTiff,
  makeXlsx,
} from './fixtures';

export interface HostileInput {
  label: string;
  name: string;
  content: Buffer;
}

/** A deterministic generator, so a failure names an input that can be made again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A PDF whose page tree declares `count` pages while holding one. */
export function pdfDeclaringPages(count: number): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A PNG header claiming 100,000 × 100,000 pixels (a decompression bomb for image decoders). */
function pixelBombPng(valid: Buffer): Buffer {
  const copy = Buffer.from(valid);
  copy.writeUInt32BE(100_000, 16);
  copy.writeUInt32BE(100_000, 20);
  return copy;
}

/**
 * At least 300 malformed, malicious or misleading uploads: truncated and bit-flipped copies
 * of every format, wrong extensions, archive bombs, escaping and linked entries, polyglots,
 * empty files and a PDF declaring ten million pages.
 */
export async function hostileInputs(escapeTag: string): Promise<HostileInput[]> {
  const pdf = await makePdf(['hostile base page one', 'two']);
  const png = await makeImage('png', 'base');
  const bases: [string, Buffer][] = [
    ['base.pdf', pdf],
    ['base.docx', await makeDocx(['a', 'b'])],
    ['base.pptx', await makePptx(['a'])],
    ['base.xlsx', await makeXlsx({ S: [['a', 1]] })],
    ['base.hwp', await makeHwp([['가'], ['나']])],
    ['base.hwpx', await makeHwpx([['가']])],
    ['base.png', png],
    ['base.jpg', await makeImage('jpeg', 'base')],
    ['base.webp', await makeImage('webp', 'base')],
    ['base.gif', await makeImage('gif', 'base')],
    ['base.tiff', await makeTiff(['a', 'b'])],
    ['base.bmp', await makeBmp('base')],
    ['base.mp3', await makeMedia('mp3', 1)],
    ['base.wav', await makeMedia('wav', 1)],
    ['base.mp4', await makeMedia('mp4', 1, true)],
    [
      'base.zip',
      makeZip([
        { name: 'a.md', data: '# a\n' },
        { name: 'b.pdf', data: pdf },
      ]),
    ],
    ['base.tar', makeTar([{ name: 'a.md', data: '# a\n' }])],
    ['base.tar.gz', makeTar([{ name: 'a.md', data: '# a\n' }], true)],
    ['base.md', Buffer.from('# Title\n\nSome *text*.\n')],
  ];
  const inputs: HostileInput[] = [];
  const next = random(20261122);
  const extensions = bases.map(([name]) => name.slice(name.indexOf('.')));

  for (const [name, content] of bases) {
    for (const fraction of [0.01, 0.1, 0.5, 0.9, 0.99]) {
      inputs.push({
        label: `truncated ${fraction}`,
        name,
        content: content.subarray(0, Math.floor(content.length * fraction)),
      });
    }
    for (let copy = 0; copy < 6; copy++) {
      const flipped = Buffer.from(content);
      for (let bit = 0; bit < 1 + copy * 3; bit++) {
        const at = Math.floor(next() * flipped.length);
        flipped[at] ^= 1 << Math.floor(next() * 8);
      }
      inputs.push({ label: `bit-flipped ×${1 + copy * 3}`, name, content: flipped });
    }
    for (let k = 1; k <= 3; k++) {
      const other = extensions[(extensions.indexOf(name.slice(name.indexOf('.'))) + k * 5) % extensions.length];
      inputs.push({ label: 'wrong extension', name: `renamed${other}`, content });
    }
  }

  const escape = (path: string) => path.replace('TAG', escapeTag);
  const specials: HostileInput[] = [
    {
      label: 'zip bomb',
      name: 'bomb.zip',
      content: makeZip([{ name: 'z.md', data: Buffer.alloc(30 * 1024 * 1024, 0x20) }]),
    },
    {
      label: 'nested zip bomb',
      name: 'nested.zip',
      content: makeZip([
        { name: 'inner.zip', data: makeZip([{ name: 'z.md', data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]) },
      ]),
    },
    {
      label: 'tar.gz bomb',
      name: 'bomb.tgz',
      content: makeTar([{ name: 'z.md', data: Buffer.alloc(30 * 1024 * 1024, 0x20) }], true),
    },
    {
      label: 'too many files',
      name: 'many.zip',
      content: makeZip(Array.from({ length: 1500 }, (_, i) => ({ name: `${i}.md`, data: 'x' }))),
    },
    {
      label: 'traversal',
      name: 'up.zip',
      content: makeZip([{ name: escape('../../docconv-escape-TAG.md'), data: 'x' }]),
    },
    {
      label: 'deep traversal',
      name: 'deep.zip',
      content: makeZip([{ name: escape('a/b/../../../../docconv-escape-TAG.md'), data: 'x' }]),
    },
    {
      label: 'absolute',
      name: 'abs.zip',
      content: makeZip([{ name: escape('/tmp/docconv-escape-TAG.md'), data: 'x' }]),
    },
    {
      label: 'backslash traversal',
      name: 'win.zip',
      content: makeZip([{ name: escape('..\\..\\docconv-escape-TAG.md'), data: 'x' }]),
    },
    { label: 'drive letter', name: 'drive.zip', content: makeZip([{ name: 'C:/Windows/x.md', data: 'x' }]) },
    {
      label: 'tar traversal',
      name: 'up.tar',
      content: makeTar([{ name: escape('../../docconv-escape-TAG.md'), data: 'x' }]),
    },
    {
      label: 'tar absolute',
      name: 'abs.tar',
      content: makeTar([{ name: escape('/tmp/docconv-escape-TAG.md'), data: 'x' }]),
    },
    {
      label: 'zip symlink',
      name: 'link.zip',
      content: makeZip([{ name: 'l.md', data: '/etc/passwd', mode: 0o120777 }]),
    },
    {
      label: 'tar symlink',
      name: 'link.tar',
      content: makeTar([{ name: 'l.md', type: '2', linkname: '/etc/passwd' }]),
    },
    {
      label: 'tar hard link',
      name: 'hard.tar',
      content: makeTar([{ name: 'h.md', type: '1', linkname: '/etc/passwd' }]),
    },
    { label: 'tar char device', name: 'dev.tar', content: makeTar([{ name: 'd.md', type: '3' }]) },
    { label: 'tar fifo', name: 'fifo.tar', content: makeTar([{ name: 'f.md', type: '6' }]) },
    { label: 'zip device bits', name: 'dev.zip', content: makeZip([{ name: 'd.md', data: 'x', mode: 0o020666 }]) },
    {
      label: 'nested three deep',
      name: 'l1.zip',
      content: makeZip([
        { name: 'l2.zip', data: makeZip([{ name: 'l3.zip', data: makeZip([{ name: 'x.md', data: 'x' }]) }]) },
      ]),
    },
    {
      label: 'lying entry size',
      name: 'liar.zip',
      content: makeZip([{ name: 'a.md', data: 'abcdef', declaredSize: 2 }]),
    },
    { label: 'empty zip', name: 'empty.zip', content: makeZip([]) },
    {
      label: 'polyglot pdf+zip',
      name: 'poly.pdf',
      content: Buffer.concat([pdf, makeZip([{ name: 'x.md', data: 'x' }])]),
    },
    { label: 'polyglot zip named pdf', name: 'poly2.pdf', content: makeZip([{ name: 'x.pdf', data: pdf }]) },
    {
      label: 'polyglot png+zip',
      name: 'poly.png',
      content: Buffer.concat([png, makeZip([{ name: 'x.md', data: 'x' }])]),
    },
    { label: 'ten million pages', name: 'huge.pdf', content: pdfDeclaringPages(10_000_000) },
    { label: 'negative pages', name: 'negative.pdf', content: pdfDeclaringPages(-5) },
    { label: 'pixel bomb', name: 'bomb.png', content: pixelBombPng(png) },
    { label: 'zero bytes pdf', name: 'zero.pdf', content: Buffer.alloc(0) },
    { label: 'zero bytes md', name: 'zero.md', content: Buffer.alloc(0) },
    { label: 'NUL in markdown', name: 'nul.md', content: Buffer.from('a\0b') },
    {
      label: 'random bytes',
      name: 'random.bin',
      content: Buffer.from(Array.from({ length: 4096 }, () => Math.floor(next() * 256))),
    },
    {
      label: 'random bytes named pdf',
      name: 'random.pdf',
      content: Buffer.from(Array.from({ length: 4096 }, () => Math.floor(next() * 256))),
    },
    { label: 'html', name: 'page.html', content: Buffer.from('<html><body>hi</body></html>') },
    { label: 'executable', name: 'run.exe', content: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2048)]) },
    {
      label: 'executable named md',
      name: 'run.md',
      content: Buffer.concat([Buffer.from('MZ\x90\0'), Buffer.alloc(2048)]),
    },
    { label: 'legacy doc', name: 'old.doc', content: Buffer.from('d0cf11e0a1b11ae1' + '00'.repeat(2000), 'hex') },
    { label: 'name with path', name: '../../etc/passwd.md', content: Buffer.from('x') },
    { label: 'name with NUL', name: 'a\u0000b.md', content: Buffer.from('x') },
    { label: 'very long name', name: `${'n'.repeat(5000)}.md`, content: Buffer.from('x') },
    {
      label: 'gzip of non-tar',
      name: 'plain.tar.gz',
      content: (await import('node:zlib')).gzipSync(Buffer.from('not a tar')),
    },
  ];
  return [...inputs, ...specials];
}
