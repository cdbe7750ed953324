// MCP `get` reads only the lines asked for, and redacts them: a private key block that begins
// above the range is still seen whole, and line numbers stay those of the file.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { getTool } from '../../src/mcp/tools.js';
import { SECRETS } from '../fixtures/secret-corpus.js';
import { makeWorkspace } from '../helpers/workspace.js';

describe('MCP get', () => {
  const pem = SECRETS.find((s) => s.format === 'rsa private key')!;
  const lines = [
    '# 2026-03-15',
    '',
    '## keys [reference]',
    ...pem.text.split('\n'),
    'after the key',
    '- token ghp_Zq8vN2rT5wLx0aPb6NcE2dRf5GhJ7kYs9mWq',
  ];

  it('hides a private key block that begins above the lines asked for, keeping line numbers', () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': `${lines.join('\n')}\n` });
    const env = { ws, config: loadConfig(ws.root).config, now: '2026-03-15' };
    const keyBodyLine = lines.indexOf(pem.secret) + 1;
    const out = getTool(env, { path: `memory/2026-03-15.md:${keyBodyLine}:20` }).text;
    expect(out).not.toContain(pem.secret);
    const block = lines.slice(
      lines.findIndex((l) => l.startsWith('-----BEGIN')),
      lines.findIndex((l) => l.startsWith('-----END')) + 1,
    );
    for (const l of block) expect(out).not.toContain(l);
    expect(out).toContain(`${String(lines.indexOf('replaced on Monday') + 1).padStart(5)}  replaced on Monday`);
    const last = lines.length;
    expect(out).toContain(`${String(last - 1).padStart(5)}  after the key`);
    expect(out).toContain(`${String(last).padStart(5)}  - token [REDACTED:github-token]`);
    expect(out.split('\n')[0]).toBe(`memory/2026-03-15.md lines ${keyBodyLine}-${last} of ${last}`);
  });
});
