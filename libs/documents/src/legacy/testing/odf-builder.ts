import { makeZip, type ZipEntrySpec } from '../../../../../test/support/archives';

/** Which OpenDocument package to build. */
export type OdfType = 'text' | 'spreadsheet' | 'presentation';

const NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0"',
  'xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0"',
  'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"',
  'office:version="1.3"',
].join(' ');

export interface OdfSpec {
  type: OdfType;
  /** The inside of `office:text`, `office:spreadsheet` or `office:presentation`. */
  body: string;
  /** `meta:page-count` of the document statistics, when given. */
  pageCount?: number;
  /** The inside of `office:settings` (settings.xml), when given. */
  settings?: string;
  /** More entries (Basic modules, scripts); each is listed in the manifest. */
  extra?: { name: string; data: string | Buffer }[];
  /** Extra manifest lines (an encryption entry). */
  manifestLines?: string[];
}

const MIMETYPES: Record<OdfType, string> = {
  text: 'application/vnd.oasis.opendocument.text',
  spreadsheet: 'application/vnd.oasis.opendocument.spreadsheet',
  presentation: 'application/vnd.oasis.opendocument.presentation',
};

/** An OpenDocument package LibreOffice opens: `mimetype` first and stored, manifest, content, meta, settings. */
export function makeOdf(spec: OdfSpec): Buffer {
  const mimetype = MIMETYPES[spec.type];
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NAMESPACES}><office:body><office:${spec.type}>${spec.body}</office:${spec.type}></office:body></office:document-content>`;
  const statistic =
    spec.pageCount === undefined ? '' : `<meta:document-statistic meta:page-count="${spec.pageCount}"/>`;
  const meta = `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${NAMESPACES}><office:meta>${statistic}</office:meta></office:document-meta>`;
  const files: ZipEntrySpec[] = [
    { name: 'content.xml', data: content },
    { name: 'meta.xml', data: meta },
    ...(spec.settings === undefined
      ? []
      : [
          {
            name: 'settings.xml',
            data: `<?xml version="1.0" encoding="UTF-8"?><office:document-settings ${NAMESPACES}><office:settings>${spec.settings}</office:settings></office:document-settings>`,
          },
        ]),
    ...(spec.extra ?? []),
  ];
  const manifest = [
    `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ${NAMESPACES}>`,
    `<manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/>`,
    ...files.map((f) => `<manifest:file-entry manifest:full-path="${String(f.name)}" manifest:media-type="text/xml"/>`),
    ...(spec.manifestLines ?? []),
    '</manifest:manifest>',
  ].join('');
  return makeZip([
    { name: 'mimetype', data: mimetype, store: true },
    { name: 'META-INF/manifest.xml', data: manifest },
    ...files,
  ]);
}
