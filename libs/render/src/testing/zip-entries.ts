import yauzl from 'yauzl';

/** Every file of a ZIP archive (an OOXML document), by path, read with yauzl. */
export function zipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (openError, archive) => {
      if (openError) return reject(openError);
      const entries = new Map<string, Buffer>();
      archive.on('error', reject);
      archive.on('end', () => resolve(entries));
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}
