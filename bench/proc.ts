import { readFileSync } from 'node:fs';

/** User and system CPU seconds a process has used so far (Linux), or null where /proc does not tell. */
export function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // The fields after the command's name (which may hold spaces) : utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / 100 : null;
  } catch {
    return null;
  }
}
