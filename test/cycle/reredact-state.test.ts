// After the redaction rules change, what hipo keeps under `.hipo/` is brought up to them with the
// nodes: the journal (both files), the model's state, the session records and the daemon's record
// are written again with only what the rules now find redacted, and the model's cached answers
// that hold it are deleted. Raw logs stay as they were; a second run finds nothing to do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCompact } from '../../src/cli/format.js';
import { updateIndex } from '../../src/index/update.js';
import { indexFile } from '../../src/index/search-index.js';
import { appendJournal } from '../../src/state/journal.js';
import { LlmState } from '../../src/state/llm.js';
import { loadSessionState, newSessionState, rememberPrompt, saveSessionState } from '../../src/state/sessions.js';
import { writeDaemonState } from '../../src/state/daemon-record.js';
import { AnswerCache } from '../../src/summarize/llm/cache.js';
import { Redactor } from '../../src/redact/redactor.js';
import { indexOf } from '../helpers/search.js';
import { cycle, rawLog, rawLogHashes } from '../helpers/tree.js';
import { journalRecords, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

const SECRET = 'ACME-482913';
const PATTERN = 'ACME-[0-9]{6}';

function tree(): TestWorkspace {
  return makeWorkspace({
    'memory/2026-01-06.md': rawLog('2026-01-06', { 'Office [reference]': ['moved the build server to rack 4'] }),
    'memory/2026-02-10.md': rawLog('2026-02-10', { 'Office [reference]': [`door badge ${SECRET} for the lab`] }),
  });
}

const answer = (text: string) => ({ text, finishReason: 'stop', tokensIn: 10, tokensOut: 5, model: 'm', latencyMs: 1 });

/** What hipo kept under `.hipo/` before the pattern was added, each as the code that keeps it writes it. */
function keepState(ws: TestWorkspace): void {
  appendJournal(ws, [{ type: 'hook-error', at: '2026-03-20T10:00:00Z', event: 'Stop', message: `cannot read ${SECRET}` }]);
  // An older generation of the journal, as rotation leaves it.
  ws.write('.hipo/journal.1.jsonl', `${JSON.stringify({ type: 'hook-error', message: `badge ${SECRET}` })}\n{"type":"cyc`);
  LlmState.load(ws).recordFailedInput('daily:2026-02-10', {
    sourceHash: 'abc',
    model: 'm',
    reason: `invalid output: door badge ${SECRET}`,
    at: '2026-03-20T10:00:00Z',
  });
  const cache = new AnswerCache(ws);
  cache.put('with-secret', answer(`- door badge ${SECRET} for the lab`));
  cache.put('without', answer('- moved the build server to rack 4'));
  const session = newSessionState('s-1', '2026-02-10', '/tmp/transcript.jsonl');
  rememberPrompt(session, `what is the badge ${SECRET}?`);
  session.turns.push({ key: 't1', file: '2026-02-10.md', at: 0, bytes: 10, prompt: `badge ${SECRET}` });
  saveSessionState(ws, session);
  writeDaemonState(ws, {
    pid: 1,
    host: 'h',
    since: '2026-03-20T10:00:00Z',
    stoppedAt: '2026-03-20T11:00:00Z',
    runs: 1,
    lastRun: null,
    lastError: { at: '2026-03-20T10:30:00Z', message: `daily/2026-02-10.md: bad line "${SECRET}"` },
    indexedAt: null,
  });
}

/** The files under `.hipo/` that hold `text`, in any case (a topic keyword is folded). */
const holding = (ws: TestWorkspace, text: string, except: string[] = []): string[] =>
  ws
    .files('.hipo')
    .filter((f) => !except.includes(f))
    .filter((f) => readFileSync(join(ws.root, f)).toString('latin1').toLowerCase().includes(text.toLowerCase()));

describe('redaction rules changed after state was kept', () => {
  it('a pattern added later: no state file keeps what it finds; raw logs stay; a second run does nothing', async () => {
    const ws = tree();
    await cycle(ws, '2026-03-20', { catchUp: true });
    keepState(ws);
    const index = indexOf(ws, { embedder: null });
    await updateIndex(index);
    index.close();
    const before = holding(ws, SECRET);
    for (const f of ['journal.jsonl', 'journal.1.jsonl', 'llm-state.json', 'sessions/s-1.json', 'daemon.json', 'index.db'])
      expect(before).toContain(`.hipo/${f}`);
    expect(before.filter((f) => f.startsWith('.hipo/llm-cache/'))).toHaveLength(1);
    const raw = rawLogHashes(ws);

    ws.write('hipo.config.json', JSON.stringify({ timeZone: 'UTC', redactPatterns: [PATTERN] }));
    const r = await cycle(ws, '2026-03-20');
    expect(holding(ws, SECRET, ['.hipo/index.db'])).toEqual([]);
    expect(r.reredactedState?.redacted.sort()).toEqual([
      'daemon.json',
      'journal.1.jsonl',
      'journal.jsonl',
      'llm-state.json',
      'sessions/s-1.json',
    ]);
    expect(r.reredactedState?.dropped).toHaveLength(1);
    expect(formatCompact(r, ws, { verbose: false, configWarnings: [] })).toMatch(
      /redaction rules changed: \d+ nodes re-redacted, .*5 state files re-redacted, 1 cached model answer dropped/,
    );
    // Only what the pattern finds changed: the records are still read as they were.
    expect(journalRecords(ws).find((j) => j.type === 'hook-error')).toMatchObject({ message: 'cannot read [REDACTED:custom-1]' });
    expect(ws.read('.hipo/journal.1.jsonl')).toContain('{"type":"cyc');
    expect(LlmState.load(ws).failedInputs().get('daily:2026-02-10')).toBe('abc');
    const session = loadSessionState(ws, 's-1');
    expect(session?.prompts).toEqual(['what is the badge [REDACTED:custom-1]?']);
    expect(session?.transcript).toBe('/tmp/transcript.jsonl');
    expect(new AnswerCache(ws).get('without')?.text).toBe('- moved the build server to rack 4');
    expect(new AnswerCache(ws).has('with-secret')).toBe(false);
    expect(rawLogHashes(ws)).toEqual(raw);
    expect(JSON.parse(ws.read('.hipo/redaction.json'))).toEqual({
      nodes: new Redactor([PATTERN]).rulesKey,
      state: new Redactor([PATTERN]).rulesKey,
    });

    // The index, by its own sweep (index/reredact.ts).
    const after = indexOf(ws, { embedder: null });
    await updateIndex(after);
    after.db.pragma('wal_checkpoint(TRUNCATE)');
    after.close();
    expect(readFileSync(indexFile(ws)).toString('latin1')).not.toContain(SECRET);

    // A second run finds the rules recorded and writes nothing under `.hipo/`.
    const state = ws.hashes('.hipo');
    const again = await cycle(ws, '2026-03-20');
    expect(again.reredactedState).toBeNull();
    expect(ws.hashes('.hipo')).toEqual(state);
  });
});
