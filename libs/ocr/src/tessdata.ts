import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/** The languages whose models ship in npm data packages (`@tesseract.js-data/<lang>`). */
export const OCR_LANGUAGES = ['eng', 'kor'] as const;

/** `fast`: the packages' 4.0.0 models; `best`: their 4.0.0_best_int models. */
export type TessdataKind = 'fast' | 'best';

const folders = new Map<string, Promise<string>>();

/**
 * A folder holding every language's model side by side, as Tesseract wants them: `plain`
 * `.traineddata` files for the native program (`--tessdata-dir`), `gzip` ones for tesseract.js
 * (`langPath`). Made once per machine from the installed npm packages — nothing is downloaded —
 * under the system's temporary folder, written to a scratch folder first and renamed into
 * place so concurrent workers never see half a model.
 */
export function tessdataFolder(kind: TessdataKind, form: 'plain' | 'gzip'): Promise<string> {
  const key = `${kind}-${form}`;
  let folder = folders.get(key);
  if (!folder) {
    folder = build(kind, form);
    folders.set(key, folder);
    folder.catch(() => folders.delete(key));
  }
  return folder;
}

async function build(kind: TessdataKind, form: 'plain' | 'gzip'): Promise<string> {
  const version = kind === 'best' ? '4.0.0_best_int' : '4.0.0';
  const target = join(tmpdir(), `docconv-tessdata-${version}-${form}`);
  if (OCR_LANGUAGES.every((lang) => existsSync(join(target, fileName(lang, form))))) return target;
  const scratch = await mkdtemp(join(tmpdir(), 'docconv-tessdata-'));
  try {
    for (const lang of OCR_LANGUAGES) {
      const source = join(packageFolder(lang), version, `${lang}.traineddata.gz`);
      const destination = join(scratch, fileName(lang, form));
      if (form === 'gzip') await copyFile(source, destination);
      else await pipeline(createReadStream(source), createGunzip(), createWriteStream(destination));
    }
    await mkdir(target, { recursive: true });
    for (const lang of OCR_LANGUAGES)
      await rename(join(scratch, fileName(lang, form)), join(target, fileName(lang, form)));
    return target;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function fileName(lang: string, form: 'plain' | 'gzip'): string {
  return form === 'gzip' ? `${lang}.traineddata.gz` : `${lang}.traineddata`;
}

function packageFolder(lang: string): string {
  return dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
}
