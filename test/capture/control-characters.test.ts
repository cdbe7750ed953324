// A control character a user pasted never reaches a raw log. One NUL made every reader skip the
// whole day's log as binary, with the entries written before it, and hipo never edits a raw log.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeText } from '../../src/tree/text.js';
import { connectMcp } from '../helpers/mcp.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const SESSION = '3f2a9c1d-7e55-4b8a-9c0e-5d1f2a3b4c5d';
const EARLIER = '# 2026-03-15\n\n## standup [project]\n- shipped the parser for invoices\n';
/** A NUL, an escape sequence, a bell, a DEL and a C1 control; a secret cut in two by a NUL. */
const PASTED = 'a pasted value: abc\u0000def \u001b[2Jcleared\u0007 rub\u007fout \u009bx; key sk-proj-abc123def456\u0000ghi789jkl012mno345';

function expectReadable(ws: TestWorkspace): string {
  const bytes = readFileSync(join(ws.root, 'memory/2026-03-15.md'));
  const decoded = decodeText(bytes);
  expect(decoded.ok).toBe(true);
  const text = decoded.ok ? decoded.text : '';
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  expect(text.startsWith(EARLIER)).toBe(true);
  expect(text).toContain('abcdef [2Jcleared rubout x; key [REDACTED:');
  expect(text).not.toContain('ghi789');
  // The day is still read: the entry written before is found.
  const found = runCli(['search', '--dir', ws.root, '--mode', 'bm25', 'parser invoices']);
  expect(found.code).toBe(0);
  expect(found.stdout).toContain('memory/2026-03-15.md:3-4');
  return text;
}

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

describe('control characters in what is appended to a raw log', () => {
  it('are removed from a captured prompt (hipo hook Stop)', () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': EARLIER });
    const t = new TranscriptWriter(SESSION, '2026-03-15T09:00:00.000Z')
      .user(`Please keep this: ${PASTED}`)
      .assistant('Kept.')
      .writeTo(join(ws.root, 'session.jsonl'));
    const r = runCli(['hook', 'Stop', '--dir', ws.root], {
      input: hookJson('Stop', { session_id: SESSION, cwd: ws.root, transcript_path: t }),
    });
    expect(r.code).toBe(0);
    expect(expectReadable(ws)).toContain('User: Please keep this: a pasted value: abcdef');
  });

  it('are removed from `hipo log` text and topic', () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': EARLIER });
    const r = runCli(['log', '--dir', ws.root, '--now', '2026-03-15T14:05:00Z', '--topic', 'paste\u001b[31m red', '-'], { input: PASTED });
    expect(r.code).toBe(0);
    expect(expectReadable(ws)).toContain('## paste 31m red [project] · 14:05\n- a pasted value: abcdef');
  });

  it('are removed from an MCP log call', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': EARLIER });
    const client = await connectMcp(['--dir', ws.root, '--now', '2026-03-15T14:05:00Z']);
    clients.push(client);
    const r = (await client.callTool({ name: 'log', arguments: { text: PASTED, topic: 'paste' } })) as { isError?: boolean };
    expect(r.isError).toBeFalsy();
    expect(expectReadable(ws)).toContain('## paste [project] · 14:05\n- a pasted value: abcdef');
  });
});
