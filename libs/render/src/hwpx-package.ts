import JSZip from 'jszip';
import type { BinaryItem } from './hwpx-pictures';
import { element, OWPML_NAMESPACES, OWPML_VERSION, textNode, xmlPart } from './hwpx-xml';

/** The parts of one HWPX document that depend on its content. */
export interface HwpxParts {
  title: string;
  headerXml: string;
  sectionXml: string;
  pictures: readonly BinaryItem[];
  /** Plain text of the document's start, which file browsers show as its preview. */
  previewText: string;
  /** When the document was made. */
  created: Date;
}

/** What the package's first entry says, as Hancom Office writes it. */
export const HWPX_MIMETYPE = 'application/hwp+zip';

/**
 * The HWPX (OCF-style ZIP) package: `mimetype` first and stored uncompressed, then the version,
 * the style book and section, the pictures in `BinData/`, the settings, the preview text, the
 * container files and the package manifest (`Contents/content.hpf`), which lists every content
 * part and picture and carries the title. Everything else is deflated.
 */
export async function hwpxPackage(parts: HwpxParts): Promise<Buffer> {
  const zip = new JSZip();
  // Parts only: Hancom's packages hold no folder entries.
  const add = (path: string, data: string | Buffer, stored = false): void => {
    zip.file(path, data, { createFolders: false, ...(stored ? { compression: 'STORE' } : {}) });
  };
  add('mimetype', HWPX_MIMETYPE, true);
  add('version.xml', versionXml(), true);
  add('Contents/header.xml', parts.headerXml);
  add('Contents/section0.xml', parts.sectionXml);
  for (const picture of parts.pictures) add(picture.path, picture.bytes);
  add('settings.xml', settingsXml());
  add('Preview/PrvText.txt', parts.previewText);
  add('META-INF/container.xml', containerXml());
  add('META-INF/manifest.xml', xmlPart(element('odf:manifest', { 'xmlns:odf': ODF_MANIFEST })));
  add('META-INF/container.rdf', containerRdf());
  add('Contents/content.hpf', contentHpf(parts));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}

const ODF_MANIFEST = 'urn:oasis:names:tc:opendocument:xmlns:manifest:1.0';
const PACKAGE_META = 'http://www.hancom.co.kr/hwpml/2016/meta/pkg#';

function versionXml(): string {
  return xmlPart(
    element('hv:HCFVersion', {
      'xmlns:hv': 'http://www.hancom.co.kr/hwpml/2011/version',
      tagetApplication: 'WORDPROCESSOR',
      major: 5,
      minor: 1,
      micro: 0,
      buildNumber: 1,
      os: 1,
      xmlVersion: OWPML_VERSION,
      application: 'docconv',
      appVersion: '1.0',
    }),
  );
}

function settingsXml(): string {
  return xmlPart(
    element(
      'ha:HWPApplicationSetting',
      {
        'xmlns:ha': 'http://www.hancom.co.kr/hwpml/2011/app',
        'xmlns:config': 'urn:oasis:names:tc:opendocument:xmlns:config:1.0',
      },
      element('ha:CaretPosition', { listIDRef: 0, paraIDRef: 0, pos: 0 }),
    ),
  );
}

function containerXml(): string {
  const rootfile = (path: string, mediaType: string): string =>
    element('ocf:rootfile', { 'full-path': path, 'media-type': mediaType });
  return xmlPart(
    element(
      'ocf:container',
      {
        'xmlns:ocf': 'urn:oasis:names:tc:opendocument:xmlns:container',
        'xmlns:hpf': 'http://www.hancom.co.kr/schema/2011/hpf',
      },
      element(
        'ocf:rootfiles',
        {},
        rootfile('Contents/content.hpf', 'application/hwpml-package+xml'),
        rootfile('Preview/PrvText.txt', 'text/plain'),
        rootfile('META-INF/container.rdf', 'application/rdf+xml'),
      ),
    ),
  );
}

/** The package's parts as RDF, as Hancom lists them: the header file and the section file. */
function containerRdf(): string {
  const part = (path: string, type: string): string[] => [
    element(
      'rdf:Description',
      { 'rdf:about': '' },
      element('ns0:hasPart', { 'xmlns:ns0': PACKAGE_META, 'rdf:resource': path }),
    ),
    element('rdf:Description', { 'rdf:about': path }, element('rdf:type', { 'rdf:resource': PACKAGE_META + type })),
  ];
  return xmlPart(
    element(
      'rdf:RDF',
      { 'xmlns:rdf': 'http://www.w3.org/1999/02/22-rdf-syntax-ns#' },
      ...part('Contents/header.xml', 'HeaderFile'),
      ...part('Contents/section0.xml', 'SectionFile'),
      element(
        'rdf:Description',
        { 'rdf:about': '' },
        element('rdf:type', { 'rdf:resource': `${PACKAGE_META}Document` }),
      ),
    ),
  );
}

/** The package manifest: metadata (title, language, dates), every part and picture, and the reading order. */
function contentHpf(parts: HwpxParts): string {
  const date = parts.created.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const meta = (name: string, value: string): string =>
    element('opf:meta', { name, content: 'text' }, ...(value === '' ? [] : [textNode(value)]));
  const item = (id: string, href: string, mediaType: string, embedded = false): string =>
    element('opf:item', { id, href, 'media-type': mediaType, ...(embedded ? { isEmbeded: 1 } : {}) });
  return xmlPart(
    element(
      'opf:package',
      { ...OWPML_NAMESPACES, version: '', 'unique-identifier': '', id: '' },
      element(
        'opf:metadata',
        {},
        element('opf:title', {}, textNode(parts.title)),
        element('opf:language', {}, 'ko'),
        meta('creator', 'docconv'),
        meta('CreatedDate', date),
        meta('ModifiedDate', date),
      ),
      element(
        'opf:manifest',
        {},
        item('header', 'Contents/header.xml', 'application/xml'),
        ...parts.pictures.map((picture) => item(picture.id, picture.path, picture.mediaType, true)),
        item('section0', 'Contents/section0.xml', 'application/xml'),
        item('settings', 'settings.xml', 'application/xml'),
      ),
      element(
        'opf:spine',
        {},
        element('opf:itemref', { idref: 'header', linear: 'yes' }),
        element('opf:itemref', { idref: 'section0', linear: 'yes' }),
      ),
    ),
  );
}
