/** Types for the HTML encoding packages, which ship none. */

declare module 'html-encoding-sniffer' {
  /**
   * The WHATWG encoding sniffing algorithm: the byte-order mark, then the transport layer's
   * label, then a `<meta>` charset in the first 1024 bytes, then `defaultEncoding`.
   */
  function sniffHtmlEncoding(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
  export = sniffHtmlEncoding;
}

declare module 'whatwg-encoding' {
  /** The WHATWG name of an encoding label (`latin1` → `windows-1252`), or null when it names none. */
  export function labelToName(label: string): string | null;
  /** Decodes bytes in the named encoding; a byte-order mark takes precedence. Throws RangeError for an unsupported name. */
  export function decode(bytes: Uint8Array, fallbackEncodingName: string): string;
  /** The encoding a byte-order mark names, or null. */
  export function getBOMEncoding(bytes: Uint8Array): string | null;
  export function isSupported(name: string): boolean;
}
