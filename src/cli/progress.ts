// Progress of a long index update: a redrawn bar on a terminal, plain lines (at most one per
// tenth of the work) in logs and pipes. Always on stderr, so stdout stays clean for --json.
import type { UpdateProgress } from '../index/update.js';

const PHASES: Record<UpdateProgress['phase'], string> = { files: 'reading files', embed: 'embedding chunks' };
const WIDTH = 24;

export interface ProgressSink {
  update(p: UpdateProgress): void;
  /** Ends the bar (a newline on a terminal). */
  done(): void;
}

export interface ProgressOptions {
  /** Plain progress lines when not on a terminal (off: nothing is shown there). */
  plain: boolean;
  /** Show nothing for work that finishes within this many milliseconds. */
  delayMs: number;
}

export function progressSink(stream: NodeJS.WriteStream, plainLine: (text: string) => void, opts: ProgressOptions): ProgressSink {
  const tty = stream.isTTY === true;
  const started = Date.now();
  let lastPhase: string | null = null;
  let lastTenth = -1;
  let drawn = false;
  let lastDraw = 0;
  return {
    update(p) {
      if (p.total === 0 || (!tty && !opts.plain) || Date.now() - started < opts.delayMs) return;
      const frac = Math.min(1, p.done / p.total);
      const label = `${PHASES[p.phase]} ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}`;
      if (tty) {
        const now = Date.now();
        if (p.phase === lastPhase && p.done !== p.total && now - lastDraw < 80) return;
        if (p.phase !== lastPhase && drawn) stream.write('\n');
        const filled = Math.round(frac * WIDTH);
        stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.round(frac * 100)).padStart(3)}% ${label}\u001b[K`);
        drawn = true;
        lastDraw = now;
        lastPhase = p.phase;
        return;
      }
      const tenth = Math.floor(frac * 10);
      if (p.phase !== lastPhase) lastTenth = -1;
      lastPhase = p.phase;
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      plainLine(`  ${label} (${Math.round(frac * 100)}%)`);
    },
    done() {
      if (tty && drawn) stream.write('\n');
      drawn = false;
    },
  };
}
