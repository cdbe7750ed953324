// Progress of long work (an index update, a compaction catch-up): on a terminal a redrawn bar
// with counts, the rate-based time left and the item in hand (redrawn every second, so a long
// single step shows its time running); in logs and pipes plain lines, at most one per tenth of
// the work. Nothing for work that ends within `delayMs`. Always on stderr, so stdout stays
// clean for --json.

interface ProgressEvent {
  phase: string;
  done: number;
  total: number;
  /** The item being worked on (a node's path). */
  detail?: string;
}

const PHASES: Record<string, string> = { files: 'reading files', embed: 'embedding chunks', compact: 'compacting' };
const WIDTH = 24;

export interface ProgressSink {
  update(p: ProgressEvent): void;
  /** Ends the bar (a newline on a terminal). */
  done(): void;
}

export interface ProgressOptions {
  /** Plain progress lines when not on a terminal (off: nothing is shown there). */
  plain: boolean;
  /** Show nothing for work that finishes within this many milliseconds. */
  delayMs: number;
  /** The clock (tests). */
  now?: () => number;
}

/** `45 s`, `3 min 20 s`, `1 h 05 min`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

export function progressSink(stream: NodeJS.WriteStream, plainLine: (text: string) => void, opts: ProgressOptions): ProgressSink {
  const now = opts.now ?? Date.now;
  const tty = stream.isTTY === true;
  const started = now();
  let phase: { name: string; at: number; from: number } | null = null;
  let last: ProgressEvent | null = null;
  let lastTenth = -1;
  let drawn = false;
  let lastDraw = 0;
  let ticker: NodeJS.Timeout | null = null;

  /** Time left from the phase's rate so far, once there is something to go on. */
  const eta = (p: ProgressEvent, t: number): string => {
    if (!phase || p.done >= p.total) return '';
    const did = p.done - phase.from;
    const spent = t - phase.at;
    if (did <= 0 || spent < 1000) return '';
    return `ETA ${formatDuration((spent / did) * (p.total - p.done))}`;
  };
  const describe = (p: ProgressEvent, t: number): string => {
    const count = `${PHASES[p.phase] ?? p.phase} ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}`;
    const time = [formatDuration(t - (phase?.at ?? started)), eta(p, t)].filter(Boolean).join(', ');
    return [count, time, p.detail ?? ''].filter(Boolean).join(' · ');
  };
  const draw = (p: ProgressEvent, t: number): void => {
    const frac = Math.min(1, p.done / p.total);
    const filled = Math.round(frac * WIDTH);
    const text = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.round(frac * 100)).padStart(3)}% ${describe(p, t)}`;
    const width = stream.columns && stream.columns > 20 ? stream.columns - 1 : 200;
    stream.write(`\r${text.length > width ? `${text.slice(0, width - 1)}…` : text}\u001b[K`);
    drawn = true;
    lastDraw = t;
  };
  return {
    update(p) {
      const t = now();
      if (!phase || phase.name !== p.phase) {
        if (tty && drawn) stream.write('\n');
        phase = { name: p.phase, at: t, from: p.done };
        lastTenth = -1;
        drawn = false;
      }
      last = p;
      if (tty && !ticker) {
        // Redrawn every second, so one long step (a 50 MB log) shows its time running.
        ticker = setInterval(() => {
          const at = now();
          if (last && last.total > 0 && at - started >= opts.delayMs) draw(last, at);
        }, 1000).unref();
      }
      if (p.total === 0 || (!tty && !opts.plain) || t - started < opts.delayMs) return;
      if (tty) {
        if (drawn && p.done !== p.total && t - lastDraw < 80) return;
        draw(p, t);
        return;
      }
      const tenth = Math.floor(Math.min(1, p.done / p.total) * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      const left = eta(p, t);
      plainLine(
        `  ${PHASES[p.phase] ?? p.phase} ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} (${Math.round(Math.min(1, p.done / p.total) * 100)}%${left ? `, ${left}` : ''})`,
      );
    },
    done() {
      if (ticker) clearInterval(ticker);
      ticker = null;
      if (tty && drawn) stream.write('\n');
      drawn = false;
    },
  };
}
