/**
 * Just enough of PowerPoint 97–2003's binary format ([MS-PPT]) for intake. Every record starts
 * with an 8-byte header: version (4 bits) and instance (12 bits), type (16 bits), length (32
 * bits); version 0xF marks a container whose data is more records.
 */

const CONTAINER_VERSION = 0xf;
const RT_DOCUMENT = 0x03e8;
const RT_SLIDE_LIST_WITH_TEXT = 0x0ff0;
const RT_SLIDE_PERSIST_ATOM = 0x03f3;

/** `Current User` stream: the CurrentUserAtom's header token of an encrypted presentation. */
const ENCRYPTED_TOKEN = 0xf3d1c4df;

/**
 * The start of a VBAInfoContainer holding its VBAInfoAtom: the record a presentation carries
 * when it has a VBA project (the project itself is a compressed ExOleObjStg, not a storage of
 * its own).
 */
const VBA_INFO = Buffer.from([
  0x0f, 0x00, 0xff, 0x03, 0x14, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x04, 0x0c, 0x00, 0x00, 0x00,
]);

interface PptRecord {
  instance: number;
  type: number;
  container: boolean;
  data: Buffer;
}

/** The records directly inside `data`. */
function* records(data: Buffer): Generator<PptRecord> {
  let at = 0;
  while (at + 8 <= data.length) {
    const head = data.readUInt16LE(at);
    const length = data.readUInt32LE(at + 4);
    yield {
      instance: head >> 4,
      type: data.readUInt16LE(at + 2),
      container: (head & 0xf) === CONTAINER_VERSION,
      data: data.subarray(at + 8, Math.min(data.length, at + 8 + length)),
    };
    at += 8 + length;
  }
}

/** Whether the `PowerPoint Document` stream declares a VBA project. */
export function hasVbaInfo(document: Buffer): boolean {
  return document.includes(VBA_INFO);
}

/** Whether the `Current User` stream says the presentation is encrypted. */
export function isEncryptedPresentation(currentUser: Buffer | undefined): boolean {
  return currentUser !== undefined && currentUser.length >= 16 && currentUser.readUInt32LE(12) === ENCRYPTED_TOKEN;
}

/**
 * Slides listed in the presentation: the SlidePersistAtoms of the slide list (instance 0) in
 * the last DocumentContainer of the stream (an incrementally saved file appends newer ones).
 * Zero when there is no such list.
 */
export function countListedSlides(document: Buffer): number {
  let slides = 0;
  for (const record of records(document)) {
    if (record.type !== RT_DOCUMENT || !record.container) continue;
    const list = [...records(record.data)].find(
      (child) => child.type === RT_SLIDE_LIST_WITH_TEXT && child.instance === 0 && child.container,
    );
    slides = list ? [...records(list.data)].filter((child) => child.type === RT_SLIDE_PERSIST_ATOM).length : 0;
  }
  return slides;
}
