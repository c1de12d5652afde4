import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { filesUnder, importClosure } from './import-closure';
import { API_SIDE_ENTRIES, workerOnlyFolders } from './worker-only';

const ROOT = resolve(__dirname, '..', '..');

describe("the import closure of the API's side", () => {
  it('holds no worker-only file: no OCR, engine, pipeline or reader code, in the API or the admin CLI', () => {
    const closure = importClosure(ROOT, API_SIDE_ENTRIES);
    expect(closure.files).toContain('libs/documents/src/intake.ts'); // the API's intake thread is followed
    expect(closure.files).toContain('apps/admin/src/main.ts');
    expect(filesUnder(closure, workerOnlyFolders())).toEqual([]);
    expect(closure.packages).not.toContain('tesseract.js');
  }, 120_000);
});

describe('importClosure', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'closure-'));
    write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          module: 'commonjs',
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          baseUrl: '.',
          paths: { '@app/reading': ['lib/reading'] },
        },
      }),
    );
    write('lib/reading.ts', "export { Engine } from './engine';\n");
    write('lib/engine.ts', 'export class Engine {}\nexport interface Shape { side: number }\n');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('follows imports of values through path aliases, and counts files and lines', () => {
    write('main.ts', "import { Engine } from '@app/reading';\nnew Engine();\n");
    const closure = importClosure(root, ['main.ts']);
    expect(closure.files).toEqual(['lib/engine.ts', 'lib/reading.ts', 'main.ts']);
    expect(closure.lines).toBe(2 + 1 + 2);
  });

  it('leaves out imports only of types, which compilation erases', () => {
    write(
      'main.ts',
      "import type { Engine } from '@app/reading';\nimport { Shape } from './lib/engine';\nexport let e: Engine | Shape | undefined;\n",
    );
    expect(importClosure(root, ['main.ts']).files).toEqual(['main.ts']);
  });

  it('keeps a class that decorator metadata names, as a dependency injector loads it', () => {
    write(
      'main.ts',
      "import { Engine } from './lib/engine';\nconst Injectable = (): ClassDecorator => () => undefined;\n@Injectable()\nexport class Service {\n  constructor(readonly engine: Engine) {}\n}\n",
    );
    expect(importClosure(root, ['main.ts']).files).toContain('lib/engine.ts');
  });

  it('follows the worker threads a module starts, and records packages', () => {
    write(
      'main.ts',
      "import { compiledThreadEntry } from 'contracts-package/threads';\nexport const entry = compiledThreadEntry(__dirname, 'thread.js');\n",
    );
    write('thread.ts', "import { readFile } from 'node:fs';\nimport './lib/reading';\nexport { readFile };\n");
    write(
      'node_modules/contracts-package/threads.ts',
      'export declare function compiledThreadEntry(d: string, f: string): string;\n',
    );
    const closure = importClosure(root, ['main.ts']);
    expect(closure.files).toEqual(['lib/engine.ts', 'lib/reading.ts', 'main.ts', 'thread.ts']);
    expect(closure.packages).toEqual(['contracts-package']);
    expect(filesUnder(closure, ['lib/'])).toEqual(['lib/engine.ts', 'lib/reading.ts']);
  });
});
