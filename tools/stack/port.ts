import { createServer } from 'node:net';

/** The API's port when PORT does not name one. */
export const DEFAULT_PORT = 3000;
/** How many ports after the default are tried when it is busy. */
const TRIES = 20;

export type PortChoice =
  | { port: number; movedFrom?: number }
  | { busy: number; reason: 'PORT' }
  | { busy: number; reason: 'range' }
  | { invalid: string };

/**
 * The port the local stack's API listens on. PORT, when set, is used as it is, and a busy one is
 * reported (the person asked for it). Unset: 3000, or the next free port after it when 3000 is busy.
 */
export async function choosePort(
  requested: string | undefined,
  isFree: (port: number) => Promise<boolean>,
): Promise<PortChoice> {
  if (requested !== undefined && requested !== '') {
    const port = Number(requested);
    if (!/^\d+$/.test(requested) || port < 1 || port > 65535) return { invalid: requested };
    return (await isFree(port)) ? { port } : { busy: port, reason: 'PORT' };
  }
  for (let port = DEFAULT_PORT; port < DEFAULT_PORT + TRIES; port += 1) {
    if (await isFree(port)) return port === DEFAULT_PORT ? { port } : { port, movedFrom: DEFAULT_PORT };
  }
  return { busy: DEFAULT_PORT, reason: 'range' };
}

/** Whether a server could listen on `port` on every interface, as the API does. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '0.0.0.0', () => server.close(() => done(true)));
  });
}
