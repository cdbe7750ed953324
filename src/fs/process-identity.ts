// Who a process is, beyond its pid: pids are reused (after a reboot, or once a busy machine has
// gone round), so a lock records its holder's start time and the boot it ran in, and a later
// reader can tell the holder from a stranger that got the same number.
import { readFileSync } from 'node:fs';
import { hostname, uptime } from 'node:os';

/** Whether a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A process's start time in clock ticks since boot (`/proc/<pid>/stat`, field 22), exact and
 * stable for the life of the process. Null where there is no /proc (macOS, Windows) or no such
 * process.
 */
export function processStartTicks(pid: number): string | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return null;
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields[19];
  return ticks && /^\d+$/.test(ticks) ? ticks : null;
}

/** When a process started (epoch ms), from its ticks and the boot time; Linux only. */
export function processStartedAt(pid: number): number | null {
  const ticks = processStartTicks(pid);
  const btime = /^btime (\d+)$/m.exec(readProc('/proc/stat') ?? '')?.[1];
  if (ticks === null || !btime) return null;
  // USER_HZ is 100 on every Linux build that matters; the result only has to beat a file's mtime.
  return Number(btime) * 1000 + Number(ticks) * 10;
}

let bootCache: string | null | undefined;

/** An id of the current boot: the kernel's on Linux, else the boot time to the minute. */
function bootId(): string | null {
  if (bootCache !== undefined) return bootCache;
  const id = readProc('/proc/sys/kernel/random/boot_id')?.trim();
  bootCache = id ? id : `booted-${Math.round((Date.now() - uptime() * 1000) / 60_000)}`;
  return bootCache;
}

/** Whether two boot ids are the same boot (boot times may differ by a minute of rounding). */
export function sameBoot(a: string, b: string): boolean {
  if (a === b) return true;
  const ma = /^booted-(\d+)$/.exec(a);
  const mb = /^booted-(\d+)$/.exec(b);
  return !!ma && !!mb && Math.abs(Number(ma[1]) - Number(mb[1])) <= 1;
}

export interface ProcessIdentity {
  pid: number;
  host: string;
  /** Boot the process runs in. */
  boot: string | null;
  /** Start time in ticks (Linux), null where it cannot be read. */
  start: string | null;
}

let selfCache: ProcessIdentity | null = null;

export function selfIdentity(): ProcessIdentity {
  selfCache ??= { pid: process.pid, host: hostname(), boot: bootId(), start: processStartTicks(process.pid) };
  return selfCache;
}
