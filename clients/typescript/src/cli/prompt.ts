import { createInterface } from 'node:readline/promises';
import { CliFailure } from './terminal';

/** Asks a yes/no question on `output`; only an answer starting with y or Y counts as yes. */
export async function askYesNo(
  question: string,
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
): Promise<boolean> {
  const rl = createInterface({ input, output, terminal: Boolean(input.isTTY) });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

const ENTER = new Set(['\r', '\n', '\u0004']);
const INTERRUPT = '\u0003';
const BACKSPACE = new Set(['\u007f', '\b']);

/**
 * Reads a line from a terminal without echoing it (for passwords). The terminal is put in
 * raw mode for the duration, so each key arrives as typed; Ctrl-C cancels.
 */
export function askHidden(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  output.write(question);
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  let typed = '';
  return new Promise<string>((resolve, reject) => {
    const finish = (): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
    };
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (ENTER.has(char)) {
          finish();
          resolve(typed);
          return;
        }
        if (char === INTERRUPT) {
          finish();
          reject(new CliFailure('Cancelled.', undefined, 130));
          return;
        }
        typed = BACKSPACE.has(char) ? typed.slice(0, -1) : typed + char;
      }
    };
    input.on('data', onData);
  });
}
