import { readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in MB (`VmRSS` now, `VmHWM` the peak since the process started). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Math.round(Number(/(\d+)/.exec(line)![1]) / 1024);
}

export const residentMb = (pid: number): number => statusMb(pid, 'VmRSS');
export const peakResidentMb = (pid: number): number => statusMb(pid, 'VmHWM');

/** The ids of a process's direct children (Linux). */
export function childPids(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

/** A process's command line, or '' when it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** Whether a process with this id is alive (and not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
