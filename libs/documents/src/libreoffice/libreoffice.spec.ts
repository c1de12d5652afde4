import { DomainError } from '@docconv/contracts';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeOdf } from '../legacy/testing/odf-builder';
import { convertWithLibreOffice, PROFILE_REGISTRY, type ConvertOptions } from './libreoffice';
import { heldSlots, officeProcesses, runFolders } from './testing/leftovers';

let folder: string;
let runs: string;
let odt: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-office-spec-'));
  // Run folders go here, so a test can see that none is left behind.
  runs = join(folder, 'runs');
  await mkdir(runs);
  odt = join(folder, 'letter.odt');
  await writeFile(odt, makeOdf({ type: 'text', body: '<text:p>Dear reader,</text:p>' }));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

afterEach(async () => {
  expect(await runFolders(runs)).toEqual([]);
  expect(await heldSlots()).toEqual([]);
  expect(await officeProcesses(runs)).toEqual([]);
});

/** Options of every run here: its folder made under `runs`. */
const inRuns = (options: ConvertOptions = {}): ConvertOptions => ({ ...options, workFolder: runs });

describe('convertWithLibreOffice', () => {
  it('converts to OOXML in a folder of its own that dispose removes', async () => {
    const converted = await convertWithLibreOffice(odt, 'docx', 'Letter (final).odt', inRuns());
    expect(converted.path.startsWith(runs)).toBe(true);
    expect(converted.path).toMatch(/docconv-lo-[^/]+\/out\/input\.docx$/);
    expect((await readFile(converted.path)).subarray(0, 2).toString()).toBe('PK');
    await converted.dispose();
  });

  it('kills the whole run at its deadline', async () => {
    const error = await convertWithLibreOffice(odt, 'docx', 'slow.odt', inRuns({ deadlineMs: 300 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('file_processing_failed');
    expect((error as DomainError).message).toMatch(/^slow\.odt took longer than 1 s to open in the office reader\./);
  });

  it('says what to do with a file the office reader cannot open', async () => {
    const broken = join(folder, 'broken.odt');
    const bytes = makeOdf({ type: 'text', body: '<text:p>cut short</text:p>'.repeat(200) });
    await writeFile(broken, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(convertWithLibreOffice(broken, 'docx', 'broken.odt', inRuns())).rejects.toThrow(
      'broken.odt could not be opened by the office reader; it may be damaged or password-protected. Save it as DOCX and upload that.',
    );
  });

  it('says the worker lacks LibreOffice when soffice is not on PATH', async () => {
    const path = process.env.PATH;
    process.env.PATH = folder;
    try {
      const error = await convertWithLibreOffice(odt, 'docx', 'letter.odt', inRuns()).catch((e: unknown) => e);
      expect((error as DomainError).code).toBe('engine_unavailable');
      expect((error as DomainError).message).toContain('does not have it installed');
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('PROFILE_REGISTRY', () => {
  const value = (path: string, name: string): string | undefined =>
    new RegExp(`oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>([^<]*)</value>`).exec(
      PROFILE_REGISTRY,
    )?.[1];

  it('turns macros off and never updates links', () => {
    const scripting = '/org.openoffice.Office.Common/Security/Scripting';
    expect(value(scripting, 'MacroSecurityLevel')).toBe('3');
    expect(value(scripting, 'DisableMacrosExecution')).toBe('true');
    expect(value(scripting, 'BlockUntrustedRefererLinks')).toBe('true');
    // Writer: 0 is never; Calc numbers its modes differently (0 always, 1 never, 2 on request).
    expect(value('/org.openoffice.Office.Writer/Content/Update', 'Link')).toBe('0');
    expect(value('/org.openoffice.Office.Calc/Content/Update', 'Link')).toBe('1');
  });

  it('sends every internet protocol to a proxy that does not exist', () => {
    expect(value('/org.openoffice.Inet/Settings', 'ooInetProxyType')).toBe('2');
    for (const protocol of ['HTTP', 'HTTPS', 'FTP']) {
      expect(value('/org.openoffice.Inet/Settings', `ooInet${protocol}ProxyName`)).toBe('127.0.0.1');
      expect(value('/org.openoffice.Inet/Settings', `ooInet${protocol}ProxyPort`)).toBe('9');
    }
  });
});
