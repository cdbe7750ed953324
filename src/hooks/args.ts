// A hook's command line (`hipo hook <event> [--dir D] [--now T]`) and the events hipo handles: read
// before anything heavy is loaded, since a hook may be answered by a running daemon.
import { CAPTURE_EVENTS } from '../capture/events.js';

export const HOOK_EVENTS = ['SessionStart', ...Object.keys(CAPTURE_EVENTS)] as const;

/** `stop`, `session-start`, `PreCompact`… → the canonical event name. */
export function canonicalEvent(name: string): string {
  const key = name.replace(/[^a-z]/gi, '').toLowerCase();
  return HOOK_EVENTS.find((e) => e.toLowerCase() === key) ?? name;
}

export function parseHookArgs(argv: readonly string[]): { event: string | null; dir?: string; now?: string; help: boolean } {
  let event: string | null = null;
  const out: { dir?: string; now?: string } = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--(dir|now)(?:=(.*))?$/.exec(a);
    if (m) {
      const v = m[2] ?? argv[++i];
      if (v !== undefined) out[m[1] as 'dir' | 'now'] = v;
    } else if (a === '-h' || a === '--help') help = true;
    else if (!a.startsWith('-') && event === null) event = a;
  }
  return { event, ...out, help };
}
