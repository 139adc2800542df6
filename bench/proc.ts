import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Spawns `node <command>` in `cwd` and gives it once it prints the url it listens on. */
export function spawnListening(
  command: string[],
  cwd: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, command, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const exited = (code: number | null) => reject(new Error(`${command.join(' ')} exited with ${code}`));
    child.once('exit', exited);
    const listening = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/[\d.]+:\d+/.exec(out)?.[0];
      if (!url) return;
      child.off('exit', exited);
      child.stdout?.off('data', listening);
      child.stdout?.resume();
      resolve({ child, url });
    };
    child.stdout?.on('data', listening);
  });
}

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

/** A row of the benchmark's table (docs/benchmarks.md), as bench/run.ts prints it. */
export interface Row {
  scenario: string;
  world: string;
  rps: number | null;
  p50: number | null;
  p99: number | null;
  rssMiB: number;
  note: string;
}
