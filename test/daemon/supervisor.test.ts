// A running daemon and its config: an edit to hipo.config.json takes effect without a restart by
// hand (the daemon starts again with it), and an edit that does not load leaves the daemon as it
// was, saying why. Real child processes, real file system events.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { node, rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const start = daemonsForTests();
const DAY = '2026-06-03';

function workspace() {
  const ws = makeWorkspace({}, FAST_DAEMON);
  ws.write(`memory/${DAY}.md`, rawLog(DAY, { 'planning [project]': ['kick-off'] }));
  return ws;
}

describe('hipo daemon and its config', () => {
  it('starts again with an edited config: a new redaction pattern holds from the next write', async () => {
    const ws = workspace();
    const d = start(ws.root, { HIPO_NOW: DAY });
    await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the end of the catch-up');
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ ...FAST_DAEMON, redactPatterns: ['Project Falcon'] }));
    await d.waitFor((l) => l.event === 'config' && l.level === 'info', 20_000, 'the restart for the new settings');
    const starts = () => d.logs.filter((l) => l.event === 'start').length;
    await d.until(() => starts() === 2, 20_000, 'the second start');
    await d.waitFor((l) => l.event === 'listening' && d.logs.indexOf(l) > d.logs.findIndex((x) => x.event === 'config'), 20_000);
    appendFileSync(join(ws.root, 'memory', `${DAY}.md`), '- the client named it Project Falcon\n');
    await d.until(() => node(ws, `daily/${DAY}.md`).body.includes('the client named it'), 20_000, 'the daily node with the new line');
    const daily = node(ws, `daily/${DAY}.md`).body;
    expect(daily).not.toContain('Project Falcon');
    expect(daily).toMatch(/the client named it \[REDACTED/);
    // One stop of the first daemon, nothing else: the process goes on.
    expect(d.logs.filter((l) => l.event === 'stop')).toHaveLength(1);
    expect(d.child.exitCode).toBeNull();
  });

  it('goes on with the settings it has when the edited config does not load, naming the file', async () => {
    const ws = workspace();
    const d = start(ws.root, { HIPO_NOW: DAY });
    await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the end of the catch-up');
    writeFileSync(join(ws.root, 'hipo.config.json'), '{ "timeZone": "UTC", ');
    const warned = await d.waitFor((l) => l.event === 'config' && l.level === 'warn', 20_000, 'the warning');
    expect(warned.message).toContain('hipo.config.json');
    expect(warned.message).toContain('the daemon goes on with the settings it has');
    appendFileSync(join(ws.root, 'memory', `${DAY}.md`), '- still followed\n');
    await d.until(() => node(ws, `daily/${DAY}.md`).body.includes('still followed'), 20_000, 'the daily node with the new line');
    expect(d.logs.filter((l) => l.event === 'stop')).toHaveLength(0);
    // Said once, not again when the same broken file is saved again.
    writeFileSync(join(ws.root, 'hipo.config.json'), '{ "timeZone": "UTC", ');
    await new Promise((r) => setTimeout(r, 1000));
    expect(d.logs.filter((l) => l.event === 'config' && l.level === 'warn')).toHaveLength(1);
  });

  it('warns again when a config put back as it was is broken again the same way', async () => {
    const ws = workspace();
    const d = start(ws.root, { HIPO_NOW: DAY });
    await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the end of the catch-up');
    const file = join(ws.root, 'hipo.config.json');
    const good = readFileSync(file, 'utf8');
    const warnings = () => d.logs.filter((l) => l.event === 'config' && l.level === 'warn').length;
    writeFileSync(file, '{ "timeZone": "UTC", ');
    await d.until(() => warnings() === 1, 20_000, 'the first warning');
    // Put back byte for byte: the daemon already runs with it, so nothing is logged; give it time to read it.
    writeFileSync(file, good);
    await new Promise((r) => setTimeout(r, 1000));
    writeFileSync(file, '{ "timeZone": "UTC", ');
    await d.until(() => warnings() === 2, 20_000, 'the second warning');
    expect(d.logs.filter((l) => l.event === 'stop')).toHaveLength(0);
  });

  it('archives, once started again with the fixed file, a session that ended while the config did not load', async () => {
    const ws = workspace();
    const d = start(ws.root, { HIPO_NOW: DAY });
    await d.waitFor((l) => l.event === 'cycle' && !l.pending, 20_000, 'the end of the catch-up');
    writeFileSync(join(ws.root, 'hipo.config.json'), '{ "timeZone": "UTC", ');
    await d.waitFor((l) => l.event === 'config' && l.level === 'warn', 20_000, 'the warning');
    const session = '0f1e2d3c-4b5a-4969-8877-665544332211';
    const t = new TranscriptWriter(session, `${DAY}T14:00:00.000Z`, ws.root)
      .user('Where do the invoices go?')
      .assistant('To the billing bucket in eu-west-1.')
      .writeTo(join(ws.root, 'session.jsonl'));
    const end = runCli(['hook', 'SessionEnd'], {
      input: hookJson('SessionEnd', { session_id: session, transcript_path: t, cwd: ws.root, reason: 'prompt_input_exit' }),
    });
    expect(end.code).toBe(1);
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify(FAST_DAEMON));
    await d.waitFor((l) => l.event === 'capture', 20_000, 'the waiting capture taken in');
    await d.until(() => node(ws, `daily/${DAY}.md`).body.includes('billing bucket'), 20_000, 'the daily node with the session');
    expect(ws.read(`memory/${DAY}.md`).match(/## Conversation/g)).toHaveLength(1);
    expect(ws.files('.hipo/pending-captures')).toEqual([]);
  });
});
