// The OpenCode plugin hipo writes into `.opencode/plugins/hipo.js`. OpenCode keeps sessions in
// its own store, so the plugin writes each session's messages as transcript JSONL (Claude Code
// shape, message ids as uuids: the same bytes every time, so hipo's byte offsets hold), runs
// `hipo hook Stop` on it when the session goes idle and deletes it again once archived (it holds
// the conversation unredacted: only the raw log, redacted, is kept); it puts the SessionStart context
// into the system prompt and into the compaction prompt, and what memory holds about the latest
// prompt (the UserPromptSubmit hook's context) into the system prompt after it. The workspace is
// found from the folder OpenCode runs in, upward (as hipo itself finds it), so the plugin holds
// no project path.

export function openCodePlugin(argv: readonly string[]): string {
  return `// hipo memory for OpenCode. Written by "hipo init --platform opencode"; "hipo uninstall" removes it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const HIPO = ${JSON.stringify(argv)};

/** The nearest hipo workspace at or above a folder (hipo.config.json, or a compacted memory/). */
function findWorkspace(start) {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (['hipo.config.json', 'hipocampus.config.json', 'memory/ROOT.md', 'memory/daily'].some((f) => existsSync(join(dir, f)))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

let WORKSPACE = null;

/** What hipo printed; null when it failed (hipo.config.json does not load, a timeout). */
function hipo(args, input) {
  try {
    return execFileSync(HIPO[0], [...HIPO.slice(1), ...args], { input, cwd: WORKSPACE, encoding: 'utf8', timeout: 15000 });
  } catch {
    return null;
  }
}

/** A hook's additionalContext for the model, or ''. */
function hookContext(event, input) {
  const out = hipo(['hook', event], JSON.stringify({ ...input, cwd: WORKSPACE }));
  try {
    return JSON.parse(out).hookSpecificOutput.additionalContext || '';
  } catch {
    return '';
  }
}

const sessionContext = (sessionID, source) => hookContext('SessionStart', { session_id: sessionID, source });
/** What memory holds about a prompt (hipo's UserPromptSubmit hook). */
const promptContext = (sessionID, prompt) => hookContext('UserPromptSubmit', { session_id: sessionID, prompt });

function transcriptLines(messages) {
  const lines = [];
  for (const m of messages) {
    const info = m.info || {};
    if (info.role !== 'user' && info.role !== 'assistant') continue;
    const content = [];
    for (const p of m.parts || []) {
      if (p.type === 'text' && p.text && !p.synthetic) content.push({ type: 'text', text: p.text });
      else if (p.type === 'tool') content.push({ type: 'tool_use', id: p.callID || p.id, name: p.tool, input: (p.state && p.state.input) || {} });
    }
    if (!content.length) continue;
    const created = info.time && info.time.created ? new Date(info.time.created).toISOString() : null;
    lines.push(JSON.stringify({ type: info.role, uuid: info.id, sessionId: info.sessionID, timestamp: created, message: { role: info.role, content } }));
  }
  return lines.map((l) => l + '\\n').join('');
}

export const HipoMemory = async ({ client, directory }) => {
  WORKSPACE = findWorkspace(directory || process.cwd());
  if (!WORKSPACE) return {}; // not a hipo workspace: nothing to load or archive
  const contexts = new Map();
  // Per session, what memory holds about its latest prompt: in the system prompt until the next one.
  const prompts = new Map();
  const archive = async (sessionID, event) => {
    try {
      const res = await client.session.messages({ path: { id: sessionID } });
      const dir = join(WORKSPACE, '.hipo', 'opencode');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, sessionID + '.jsonl');
      writeFileSync(file, transcriptLines(res.data || []), { mode: 0o600 });
      // The copy holds the conversation as typed, secrets included: it lives only while hipo
      // archives it (redacted). The next archive writes it again, the same bytes and more. A hook
      // that failed (a config that does not load) leaves it for hipo to archive once it loads.
      if (hipo(['hook', event], JSON.stringify({ session_id: sessionID, transcript_path: file, cwd: WORKSPACE })) !== null)
        rmSync(file, { force: true });
    } catch {
      // memory capture must never break the session
    }
  };
  return {
    event: async ({ event }) => {
      const id = event && event.properties && (event.properties.sessionID || (event.properties.info && event.properties.info.id));
      if (!id) return;
      if (event.type === 'session.idle') await archive(id, 'Stop');
      if (event.type === 'session.compacted') contexts.set(id, sessionContext(id, 'compact'));
      if (event.type === 'session.deleted') {
        contexts.delete(id);
        prompts.delete(id);
      }
    },
    'chat.message': async (input, output) => {
      const id = input && input.sessionID;
      if (!id) return;
      const text = ((output && output.parts) || [])
        .filter((p) => p.type === 'text' && !p.synthetic && p.text)
        .map((p) => p.text)
        .join('\\n');
      prompts.set(id, text ? promptContext(id, text) : '');
    },
    'experimental.chat.system.transform': async (input, output) => {
      const id = (input && input.sessionID) || 'opencode';
      if (!contexts.has(id)) contexts.set(id, sessionContext(id, 'startup'));
      const text = contexts.get(id);
      if (text) output.system.push(text);
      const about = prompts.get(id);
      if (about) output.system.push(about);
    },
    'experimental.session.compacting': async (input, output) => {
      const id = input && input.sessionID;
      if (id) await archive(id, 'PreCompact');
    },
  };
};
`;
}
