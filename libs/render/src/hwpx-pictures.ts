import { pictureOf, type Picture, type RenderImages } from './render-images';

/** A picture stored in the package's `BinData/` folder and listed in its manifest. */
export interface BinaryItem {
  /** The manifest id pictures refer to (`binaryItemIDRef`). */
  id: string;
  path: string;
  mediaType: string;
  bytes: Buffer;
}

/** A picture the section can draw: its bytes' manifest id and its pixel size. */
export interface PlacedPicture {
  itemId: string;
  width: number;
  height: number;
}

/**
 * The pictures a document's Markdown links, read before the section is written: each source
 * read once (from the result's images, or from the link itself when it is a `data:` URI), and
 * stored once in `BinData/` however often it is drawn. A source that is not a readable picture
 * has none, and its alt text is written instead.
 */
export class HwpxPictures {
  private readonly items: BinaryItem[] = [];
  private readonly placed = new Map<string, PlacedPicture>();

  private constructor(private readonly pictures: ReadonlyMap<string, Picture>) {}

  /** Reads every source in `sources` that names a picture. */
  static async read(sources: Iterable<string>, images: RenderImages | undefined): Promise<HwpxPictures> {
    const pictures = new Map<string, Picture>();
    for (const src of new Set(sources)) {
      const picture = await pictureOf(withDataUri(images, src), src);
      if (picture) pictures.set(src, picture);
    }
    return new HwpxPictures(pictures);
  }

  /** The picture `src` names, stored in `BinData/` on first use; undefined when there is none. */
  place(src: string): PlacedPicture | undefined {
    const known = this.placed.get(src);
    if (known) return known;
    const picture = this.pictures.get(src);
    if (!picture) return undefined;
    const id = `image${this.items.length + 1}`;
    this.items.push({
      id,
      path: `BinData/${id}.${picture.type}`,
      mediaType: picture.type === 'png' ? 'image/png' : 'image/jpg',
      bytes: picture.bytes,
    });
    const placed = { itemId: id, width: picture.width, height: picture.height };
    this.placed.set(src, placed);
    return placed;
  }

  /** The pictures stored so far, in the order they were first drawn. */
  binaryItems(): readonly BinaryItem[] {
    return this.items;
  }
}

const DATA_URI = /^data:image\/[\w.+-]+;base64,([A-Za-z0-9+/=\s]+)$/;

/** The images, with the bytes of `src` added when it is a base64 `data:` URI the images do not hold. */
function withDataUri(images: RenderImages | undefined, src: string): RenderImages | undefined {
  if (images?.has(src)) return images;
  const data = DATA_URI.exec(src);
  if (!data) return images;
  return new Map([[src, Buffer.from(data[1], 'base64')]]);
}
