// The OpenClaw plugin hipo writes into `plugins/hipo/` of the OpenClaw workspace: it archives
// each agent run's conversation into the raw log and restores a session after OpenClaw
// compacts it. OpenClaw keeps sessions in its own database; its typed plugin hooks hand the
// messages over (agent_end after a run, before_compaction before one is compacted), so the
// plugin writes the run's messages (from its prompt on) as transcript JSONL (Claude Code shape)
// and runs `hipo hook Stop` or `PreCompact` on it. The file only ever grows (hipo reads it from a byte offset): messages
// already written are not written again (their keys are kept beside it), and once the hook
// has archived them their bytes are zeroed in place, so no unredacted copy stays on disk (a
// hook that failed, the config not loading, leaves them for hipo to archive once it loads).
// After a compaction, the next run gets `hipo hook SessionStart` (source compact) as context.

export const OPENCLAW_PLUGIN_JSON = `${JSON.stringify(
  {
    id: 'hipo',
    name: 'hipo memory',
    description:
      'Archive OpenClaw sessions into hipo\'s raw log; restore a session after compaction. Written by "hipo init --platform openclaw".',
    activation: { onStartup: true },
    configSchema: { type: 'object', additionalProperties: false },
  },
  null,
  2,
)}\n`;

export const OPENCLAW_PLUGIN_PACKAGE = `${JSON.stringify({ name: 'hipo-openclaw', version: '1.0.0', private: true, type: 'module', description: 'Written by "hipo init --platform openclaw".', openclaw: { extensions: ['./index.js'] } }, null, 2)}\n`;

export function openClawPlugin(argv: readonly string[]): string {
  return `// hipo capture for OpenClaw. Written by "hipo init --platform openclaw"; "hipo uninstall" removes it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const HIPO = ${JSON.stringify(argv)};

function findWorkspace(start) {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (['hipo.config.json', 'hipocampus.config.json', 'memory/ROOT.md', 'memory/daily'].some((f) => existsSync(join(dir, f)))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** What hipo printed; null when it failed (hipo.config.json does not load, a timeout). */
function hipo(ws, args, input) {
  try {
    return execFileSync(HIPO[0], [...HIPO.slice(1), ...args], { input, cwd: ws, encoding: 'utf8', timeout: 15000 });
  } catch {
    return null;
  }
}

/** hipo's id for an OpenClaw session: its key, which stays when a compaction rotates the session id. */
const sessionOf = (ctx) => String((ctx && (ctx.sessionKey || ctx.sessionId)) || 'openclaw').replace(/[^A-Za-z0-9._-]+/g, '-');

function blocks(content) {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function transcriptLine(session, m) {
  const content = [];
  for (const b of blocks(m.content)) {
    if (!b || typeof b !== 'object') continue;
    if (b.type === 'text' && b.text) content.push({ type: 'text', text: b.text });
    else if (b.type === 'toolCall' && b.name) content.push({ type: 'tool_use', id: b.id, name: b.name, input: b.arguments || {} });
  }
  if (!content.length) return '';
  const at = typeof m.timestamp === 'number' ? new Date(m.timestamp).toISOString() : null;
  return JSON.stringify({ type: m.role, uuid: session + '-' + m.role + '-' + m.timestamp, sessionId: session, timestamp: at, message: { role: m.role, content } }) + '\\n';
}

function capture(ctx, messages, event) {
  try {
    const ws = findWorkspace((ctx && ctx.workspaceDir) || process.cwd());
    if (!ws) return;
    const session = sessionOf(ctx);
    const dir = join(ws, '.hipo', 'openclaw');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, session + '.jsonl');
    // OpenClaw hands before_compaction no messages. Every run was archived at its end and the
    // run in flight survives the compaction (agent_end archives it), so the pre-compaction
    // capture takes what the file still holds and records that the session was compacted.
    if (!Array.isArray(messages)) messages = [];
    const keysFile = join(dir, session + '.keys.json');
    const seen = new Set(existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, 'utf8')) : []);
    // This run's messages: from its prompt (the last user message) on. Earlier ones come back
    // re-stamped and with secrets masked by OpenClaw's store, so they are not taken again.
    let start = messages.length;
    while (start > 0 && !(messages[start - 1] && messages[start - 1].role === 'user')) start--;
    let added = '';
    // A run that failed before any reply (a context overflow, say) is retried by OpenClaw with
    // its prompt re-stamped: a prompt the same as the last one taken, still unanswered, is that
    // retry and not a new turn. (Kept as a hash: nothing said is stored here.)
    const UNANSWERED = 'unanswered:';
    const hash = (m) => createHash('sha256').update(JSON.stringify(m.content === undefined ? null : m.content)).digest('hex');
    let unanswered = [...seen].find((k) => k.startsWith(UNANSWERED)) || null;
    for (const m of messages.slice(Math.max(0, start - 1))) {
      if (!m || (m.role !== 'user' && m.role !== 'assistant')) continue;
      const key = m.role + ':' + m.timestamp;
      if (seen.has(key)) continue;
      seen.add(key);
      // A failed attempt's error notice is OpenClaw's, not the assistant's reply.
      if (m.role === 'assistant' && m.stopReason === 'error') continue;
      if (m.role === 'user') {
        const mark = UNANSWERED + hash(m);
        if (unanswered === mark) continue;
        if (unanswered) seen.delete(unanswered);
        unanswered = mark;
        seen.add(mark);
      } else if (unanswered && transcriptLine(session, m)) {
        seen.delete(unanswered);
        unanswered = null;
      }
      added += transcriptLine(session, m);
    }
    writeFileSync(keysFile, JSON.stringify([...seen].slice(-5000)));
    if (added) appendFileSync(file, added, { mode: 0o600 });
    if (!existsSync(file)) return;
    const hook = { session_id: session, transcript_path: file, cwd: ws, ...(event === 'PreCompact' ? { trigger: 'auto' } : {}) };
    // Not archived (a config that does not load): the bytes stay for hipo to archive once it loads.
    if (hipo(ws, ['hook', event], JSON.stringify(hook)) === null) return;
    // Archived: zero the bytes in place (the size stays, so hipo's offset holds).
    const size = statSync(file).size;
    truncateSync(file, 0);
    truncateSync(file, size);
  } catch {
    // memory capture must never break a run
  }
}

const compacted = new Set();

export default {
  id: 'hipo',
  name: 'hipo memory',
  description: "Archive OpenClaw sessions into hipo's raw log; restore a session after compaction.",
  register(api) {
    api.on('agent_end', (event, ctx) => capture(ctx, event && event.messages, 'Stop'));
    api.on('before_compaction', (event, ctx) => capture(ctx, event && event.messages, 'PreCompact'));
    api.on('after_compaction', (event, ctx) => {
      compacted.add(sessionOf(ctx));
    });
    api.on('before_prompt_build', (event, ctx) => {
      const session = sessionOf(ctx);
      if (!compacted.has(session)) return;
      compacted.delete(session);
      const ws = findWorkspace((ctx && ctx.workspaceDir) || process.cwd());
      if (!ws) return;
      try {
        const out = JSON.parse(hipo(ws, ['hook', 'SessionStart'], JSON.stringify({ session_id: session, source: 'compact', cwd: ws })));
        const text = out.hookSpecificOutput.additionalContext;
        if (text) return { prependContext: text };
      } catch {
        // nothing to restore
      }
    });
  },
};
`;
}
