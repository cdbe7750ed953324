// SessionStart: the hook JSON whose additionalContext is ROOT plus the context pack, measured
// in characters (the platform's limit is in characters). After the platform compacted the
// conversation (`source: compact`), the pack puts first this session's own archived turns that
// are most relevant to the latest prompts, so details the compaction summary dropped come back.
import type { HipoConfig } from '../config/config.js';
import type { Clock } from '../time/clock.js';
import type { Workspace } from '../tree/layout.js';
import { buildPack, type ExtraSection, type Pack } from '../context/pack.js';
import { overlap, queryTerms } from '../context/terms.js';
import { loadSessionState, newSessionState, saveSessionState, shortSessionId, type SessionState } from '../state/sessions.js';
import { readRawRange } from '../write/raw-append.js';
import { withAppendLock } from '../state/lock.js';

/** Candidate turns read back from the raw log (bounded reads by byte range). */
const CANDIDATE_TURNS = 60;
const ALWAYS_LATEST = 2;

function sessionTurnsSection(ws: Workspace, s: SessionState): ExtraSection | undefined {
  const recent = s.turns.slice(-CANDIDATE_TURNS);
  if (recent.length === 0) return undefined;
  const read = recent
    .map((t, i) => ({ t, i, bytes: readRawRange(ws, t.file, t.at, t.bytes) }))
    .filter((x) => x.bytes !== null)
    .map((x) => ({ ...x, text: x.bytes!.toString('utf8').trim() }));
  const latest = new Set(read.slice(-ALWAYS_LATEST).map((x) => x.i));
  // Words of the latest prompts, weighted by how rare they are among the candidate turns (a
  // word in every turn says nothing) and by how recent the prompt is.
  const weights = new Map<string, number>();
  s.prompts.slice(-3).forEach((p, k, all) => {
    for (const w of queryTerms(p)) {
      const df = read.filter((x) => overlap(x.text, [w]) > 0).length;
      const weight = Math.log(1 + read.length / Math.max(1, df)) * (k === all.length - 1 ? 2 : 1);
      weights.set(w, Math.max(weights.get(w) ?? 0, weight));
    }
  });
  const score = (text: string): number => {
    let n = 0;
    for (const [w, x] of weights) if (overlap(text, [w])) n += x;
    return n;
  };
  const scored = new Map(read.map((x) => [x.i, score(x.text)]));
  const ranked = [...read].sort((a, b) => {
    const la = latest.has(a.i) ? 1 : 0;
    const lb = latest.has(b.i) ? 1 : 0;
    if (la !== lb) return lb - la;
    return scored.get(b.i)! - scored.get(a.i)! || b.i - a.i;
  });
  const files = [...new Set(recent.map((t) => t.file))];
  return {
    level: 'session',
    title: 'This session before compaction (archived turns most relevant to the latest prompts)',
    path: files.join(', '),
    entries: ranked.map((x) => ({ text: x.text, order: x.i })),
    share: 0.45,
    excludeHeading: `session ${shortSessionId(s.sessionId)}`,
  };
}

export interface SessionStartOutput {
  json: string;
  pack: Pack;
}

export async function sessionStart(
  ws: Workspace,
  config: HipoConfig,
  clock: Clock,
  input: { sessionId: string | null; source: string | null; transcriptPath: string | null },
): Promise<SessionStartOutput> {
  let state: SessionState | null = null;
  if (input.sessionId) {
    const id = input.sessionId;
    // Remember the day the session started: its turns go to that day's raw log.
    try {
      state = await withAppendLock(
        ws,
        () => {
          const s = loadSessionState(ws, id);
          if (s) return s;
          const fresh = newSessionState(id, clock.today, input.transcriptPath);
          saveSessionState(ws, fresh);
          return fresh;
        },
        2000,
      );
    } catch {
      // A busy lock must not cost the session its memory: restore without recording the start.
      state = loadSessionState(ws, id);
    }
  }
  const extra = input.source === 'compact' && state ? sessionTurnsSection(ws, state) : undefined;
  const pack = buildPack({
    memoryDir: ws.memoryDir,
    memoryName: ws.memoryName,
    today: clock.today,
    timeZone: config.timeZone,
    budget: config.agents.sessionStartChars,
    unit: 'chars',
    measure: (t) => t.length,
    ephemeralMarkers: config.compaction.ephemeralMarkers,
    activeContextDays: config.compaction.activeContextDays,
    ...(extra ? { extra, query: state!.prompts.slice(-3).join(' ') } : {}),
  });
  const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: pack.text } });
  return { json, pack };
}
