// After the redaction rules change, what hipo keeps under `.hipo/` is brought up to them with the
// nodes: the journal (both files), the model's state, the session records, the daemon's record,
// the waiting captures and the backed-up placeholder are written again with only what the rules
// now find redacted; the model's cached answers that hold it are deleted, and so is the OpenCode
// plugin's copy of a session no capture needs. Raw logs stay as they were; a second run finds
// nothing to do.
import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCompact } from '../../src/cli/format.js';
import { updateIndex } from '../../src/index/update.js';
import { indexFile } from '../../src/index/search-index.js';
import { appendJournal } from '../../src/state/journal.js';
import { LlmState } from '../../src/state/llm.js';
import { pendingCaptures, recordPendingCapture } from '../../src/state/pending-captures.js';
import { loadSessionState, newSessionState, rememberPrompt, saveSessionState } from '../../src/state/sessions.js';
import { writeDaemonState } from '../../src/state/daemon-record.js';
import { AnswerCache } from '../../src/summarize/llm/cache.js';
import { Redactor } from '../../src/redact/redactor.js';
import { indexOf } from '../helpers/search.js';
import { cycle, rawLog, rawLogHashes } from '../helpers/tree.js';
import { journalRecords, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

const SECRET = 'ACME-482913';
const PATTERN = 'ACME-[0-9]{6}';

// Another tool's placeholder where the day's node goes: the first cycle backs it up to `.hipo/backup/`.
const PLACEHOLDER = `---\ntype: daily\nstatus: needs-summarization\nperiod: 2026-02-10\n---\n\nToo long; badge ${SECRET}.\n`;

function tree(): TestWorkspace {
  return makeWorkspace({
    'memory/2026-01-06.md': rawLog('2026-01-06', { 'Office [reference]': ['moved the build server to rack 4'] }),
    'memory/2026-02-10.md': rawLog('2026-02-10', { 'Office [reference]': [`door badge ${SECRET} for the lab`] }),
    'memory/daily/2026-02-10.md': PLACEHOLDER,
  });
}

/** An OpenCode session as the plugin copies it to `.hipo/opencode/`, last written `ago` ms before now. */
function openCodeCopy(ws: TestWorkspace, id: string, ago: number): string {
  const line = {
    type: 'user',
    uuid: `m-${id}`,
    sessionId: id,
    message: { role: 'user', content: [{ type: 'text', text: `badge ${SECRET}` }] },
  };
  const path = `.hipo/opencode/${id}.jsonl`;
  ws.write(path, `${JSON.stringify(line)}\n`);
  const at = new Date(Date.now() - ago);
  utimesSync(join(ws.root, path), at, at);
  return join(ws.root, path);
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
  // A hook that could not capture while the config did not load: the error quoted a setting's value.
  recordPendingCapture(ws, {
    sessionId: 'oc-waiting',
    transcript: openCodeCopy(ws, 'oc-waiting', 2 * 3600_000),
    event: 'Stop',
    at: '2026-03-20T10:00:00Z',
    problem: `hipo.config.json: "llm.baseUrl" must be an http(s) URL, got "${SECRET}"`,
  });
  // Left by a hook the plugin's time limit killed: no capture reads it again.
  openCodeCopy(ws, 'oc-left', 2 * 3600_000);
  // Written a moment ago: the plugin's hook may be reading it now.
  openCodeCopy(ws, 'oc-now', 0);
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
    const pending = ws.files('.hipo/pending-captures');
    expect(pending).toHaveLength(1);
    for (const f of ['journal.jsonl', 'journal.1.jsonl', 'llm-state.json', 'sessions/s-1.json', 'daemon.json', 'index.db'])
      expect(before).toContain(`.hipo/${f}`);
    expect(before).toEqual(expect.arrayContaining([...pending, '.hipo/backup/daily/2026-02-10.md', '.hipo/opencode/oc-left.jsonl']));
    expect(before.filter((f) => f.startsWith('.hipo/llm-cache/'))).toHaveLength(1);
    const raw = rawLogHashes(ws);

    ws.write('hipo.config.json', JSON.stringify({ timeZone: 'UTC', redactPatterns: [PATTERN] }));
    const r = await cycle(ws, '2026-03-20');
    // The copies a capture may still read are the conversation as typed, by design: the waiting
    // capture's goes once it is taken in (test/hooks/config-not-loaded.test.ts).
    const copies = ['.hipo/opencode/oc-waiting.jsonl', '.hipo/opencode/oc-now.jsonl'];
    expect(holding(ws, SECRET, ['.hipo/index.db', ...copies])).toEqual([]);
    expect(ws.files('.hipo/opencode').sort()).toEqual([...copies].sort());
    expect(r.reredactedState?.redacted.sort()).toEqual(
      [
        'backup/daily/2026-02-10.md',
        'daemon.json',
        'journal.1.jsonl',
        'journal.jsonl',
        'llm-state.json',
        ...pending.map((f) => f.slice('.hipo/'.length)),
        'sessions/s-1.json',
      ].sort(),
    );
    expect(r.reredactedState?.dropped).toHaveLength(1);
    expect(r.reredactedState?.removed).toEqual(['opencode/oc-left.jsonl']);
    const said = formatCompact(r, ws, { verbose: false, configWarnings: [] });
    expect(said).toMatch(/redaction rules changed: \d+ nodes re-redacted, .*7 state files re-redacted, 1 cached model answer dropped/);
    expect(said).toContain('1 cached model answer dropped, 1 left-over OpenCode transcript copy removed');
    // Only what the pattern finds changed: the records are still read as they were.
    expect(journalRecords(ws).find((j) => j.type === 'hook-error')).toMatchObject({ message: 'cannot read [REDACTED:custom-1]' });
    expect(ws.read('.hipo/journal.1.jsonl')).toContain('{"type":"cyc');
    expect(LlmState.load(ws).failedInputs().get('daily:2026-02-10')).toBe('abc');
    const session = loadSessionState(ws, 's-1');
    expect(session?.prompts).toEqual(['what is the badge [REDACTED:custom-1]?']);
    expect(session?.transcript).toBe('/tmp/transcript.jsonl');
    expect(new AnswerCache(ws).get('without')?.text).toBe('- moved the build server to rack 4');
    expect(new AnswerCache(ws).has('with-secret')).toBe(false);
    // The waiting capture is still taken in from where it was; the backup is the placeholder, redacted.
    expect(pendingCaptures(ws)).toEqual([
      expect.objectContaining({ transcript: join(ws.root, copies[0]!), problem: expect.stringContaining('got "[REDACTED:custom-1]"') }),
    ]);
    expect(ws.read('.hipo/backup/daily/2026-02-10.md')).toBe(PLACEHOLDER.replace(SECRET, '[REDACTED:custom-1]'));
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
