import { createServer, type Server } from 'node:net';
import { choosePort, isPortFree } from './port';

const freeExcept =
  (...busy: number[]) =>
  (port: number): Promise<boolean> =>
    Promise.resolve(!busy.includes(port));

describe('choosePort', () => {
  it('takes 3000 when PORT is unset and 3000 is free', async () => {
    expect(await choosePort(undefined, freeExcept())).toEqual({ port: 3000 });
    expect(await choosePort('', freeExcept())).toEqual({ port: 3000 });
  });

  it('takes the next free port after 3000 when 3000 is busy, and says it moved', async () => {
    expect(await choosePort(undefined, freeExcept(3000, 3001))).toEqual({ port: 3002, movedFrom: 3000 });
  });

  it('gives up when every port it tries is busy', async () => {
    expect(await choosePort(undefined, () => Promise.resolve(false))).toEqual({ busy: 3000, reason: 'range' });
  });

  it('uses PORT as it is, and reports it busy rather than moving', async () => {
    expect(await choosePort('4100', freeExcept(3000))).toEqual({ port: 4100 });
    expect(await choosePort('4100', freeExcept(4100))).toEqual({ busy: 4100, reason: 'PORT' });
  });

  it('refuses a PORT that is not a port number', async () => {
    for (const value of ['abc', '3000x', '0', '70000', '-1']) {
      expect(await choosePort(value, freeExcept())).toEqual({ invalid: value });
    }
  });
});

describe('isPortFree', () => {
  let server: Server;
  afterEach(() => new Promise<void>((done) => server.close(() => done())));

  it('sees a port that something listens on as busy, and free once it closes', async () => {
    server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    const port = (server.address() as { port: number }).port;
    expect(await isPortFree(port)).toBe(false);
    await new Promise<void>((done) => server.close(() => done()));
    expect(await isPortFree(port)).toBe(true);
    server = createServer().listen(0);
  });
});
