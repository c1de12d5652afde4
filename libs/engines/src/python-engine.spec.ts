import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineCallError } from './engine-process';
import { EngineTimeoutError, PythonEngine } from './python-engine';

/** The protocol module every engine process of ours is built on. */
const PROTOCOL = join(__dirname, '..', 'python');

/**
 * A small engine written for these tests on the shared protocol module: `{"echo": x}` answers x
 * after two progress lines, `{"sleep": s}` answers after s seconds, `{"fail": m}` refuses with m,
 * `{"crash": m}` fails unexpectedly, `{"die": true}` exits without answering. With ECHO_NO_MODEL
 * set it cannot load.
 */
const ENGINE = `
import os, sys, time
sys.path.insert(0, ${JSON.stringify(PROTOCOL)})
from engine_protocol import EXIT_NO_MODEL, EngineUnavailable, RequestError, serve

def answer(r, progress):
    if r.get("die"): os._exit(9)
    if "sleep" in r: time.sleep(r["sleep"])
    if "fail" in r: raise RequestError(r["fail"])
    if "crash" in r: raise ValueError(r["crash"])
    print("said on stdout by a library")
    progress(0.5); progress(1.0)
    return r.get("echo")

def load():
    print("loading, on stdout")
    if os.environ.get("ECHO_NO_MODEL"): raise EngineUnavailable(EXIT_NO_MODEL, "echo: no model here")
    return {"engine": "echo", "version": "1.0", "pid": os.getpid()}, answer

sys.exit(serve(load))
`;

describe('PythonEngine', () => {
  let folder: string;
  let script: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-engine-'));
    script = join(folder, 'echo_engine.py');
    await writeFile(script, ENGINE);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const open = () => PythonEngine.create({ name: 'echo', label: 'echo engine', python: 'python3', script });

  it('answers calls, forwards progress and reports what the process said of itself', async () => {
    const engine = await open();
    try {
      const progress: number[] = [];
      await expect(engine.call({ echo: 'hello' }, { onProgress: (p) => progress.push(p) })).resolves.toBe('hello');
      expect(progress).toEqual([0.5, 1]);
      expect(engine.state()).toMatchObject({
        name: 'echo',
        status: 'ready',
        info: { engine: 'echo', version: '1.0' },
        restarts: 0,
        retries: 0,
      });
    } finally {
      await engine.close();
    }
    expect(engine.state().status).toBe('stopped');
  });

  it('passes an error answer on as final, and the process goes on', async () => {
    const engine = await open();
    try {
      const failed = engine.call({ fail: 'bad input' });
      await expect(failed).rejects.toBeInstanceOf(EngineCallError);
      await expect(failed).rejects.toThrow('echo engine: bad input');
      await expect(engine.call({ echo: 1 })).resolves.toBe(1);
      expect(engine.state()).toMatchObject({ restarts: 0, retries: 0 });
    } finally {
      await engine.close();
    }
  });

  it('answers an unexpected failure as an error naming its type, and the process goes on', async () => {
    const engine = await open();
    try {
      await expect(engine.call({ crash: 'boom' })).rejects.toThrow('echo engine: ValueError: boom');
      await expect(engine.call({ echo: 'still here' })).resolves.toBe('still here');
      expect(engine.state()).toMatchObject({ restarts: 0, retries: 0 });
    } finally {
      await engine.close();
    }
  });

  it('fails to start with the exit code and message of an engine that cannot load, what it printed on stderr', async () => {
    const failure = PythonEngine.create({
      name: 'echo',
      label: 'echo engine',
      python: 'python3',
      script,
      env: { ECHO_NO_MODEL: '1' },
    });
    await expect(failure).rejects.toThrow(
      /echo engine did not start: exited with code 3: loading, on stdout\s+echo: no model here/,
    );
  });

  it('sends a request whose process dies under it once more, to a new process', async () => {
    const engine = await open();
    try {
      const first = await engine.pid();
      // The first process dies on this request; the second one dies on it too: the call fails.
      await expect(engine.call({ die: true })).rejects.toThrow(/the echo engine process exited with code 9/);
      expect(engine.state()).toMatchObject({ restarts: 1, retries: 1 });
      await expect(engine.call({ echo: 'after' })).resolves.toBe('after');
      expect(engine.state()).toMatchObject({ restarts: 2, retries: 1 });
      expect(await engine.pid()).not.toBe(first);
    } finally {
      await engine.close();
    }
  });

  it('kills a process that misses a call deadline, fails that call, and serves the next on a new one', async () => {
    const engine = await open();
    try {
      const first = await engine.pid();
      const late = engine.call({ sleep: 30, echo: 'late' }, { timeoutMs: 300 });
      await expect(late).rejects.toBeInstanceOf(EngineTimeoutError);
      await expect(late).rejects.toThrow('echo engine gave no answer within 0.3 s');
      await expect(engine.call({ echo: 'next' })).resolves.toBe('next');
      expect(await engine.pid()).not.toBe(first);
      expect(engine.state()).toMatchObject({ restarts: 1, retries: 0 });
    } finally {
      await engine.close();
    }
  });

  it('fails to start, quoting the reason, when the program cannot be run', async () => {
    await expect(
      PythonEngine.create({ name: 'echo', label: 'echo engine', python: '/nonexistent/python3', script }),
    ).rejects.toThrow('echo engine did not start: could not be run (/nonexistent/python3)');
  });
});
