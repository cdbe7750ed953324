// Reading one line of an agent's session transcript (JSONL) into a message worth archiving.
// Claude Code: `{type: user|assistant|system|summary|…, message: {content}, uuid, isMeta,
// isSidechain, isCompactSummary, timestamp}`; content is a string or blocks (text, thinking,
// tool_use, tool_result). Codex rollouts: `{type: response_item, payload: {type: message |
// function_call | …}}`. Everything else (system lines, thinking, tool results, harness
// bookkeeping, sub-agent sidechains, the model's own compact summaries) is skipped.

export interface ToolCall {
  name: string;
  /** The file path, command, pattern or URL the call was about, if any. */
  detail: string | null;
}

export interface TranscriptMessage {
  role: 'user' | 'assistant';
  /** The line's uuid (Claude Code) or null. */
  uuid: string | null;
  /** Byte offset of the line in the transcript. */
  offset: number;
  /** Byte offset just past the line (its newline included). */
  end: number;
  timestamp: string | null;
  text: string;
  tools: ToolCall[];
}

/** A Codex `compacted` line: the text that replaced the conversation, ending with the model's summary. */
export interface CompactionMark {
  compacted: string;
}

export type LineResult = TranscriptMessage | CompactionMark | 'skip' | 'malformed';

/**
 * Codex writes the model's compaction summary as an ordinary assistant message, then a
 * `compacted` line whose text ends with that summary: drop the summary's text (it is the
 * model's digest of the conversation, not something it said to the user).
 */
export function dropCompactionSummary(messages: TranscriptMessage[], mark: CompactionMark): void {
  const replaced = mark.compacted.trimEnd();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.text) continue;
    if (!replaced.endsWith(m.text.trim())) return;
    if (m.tools.length) m.text = '';
    else messages.splice(i, 1);
    return;
  }
}

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Text the harness puts in the user's turn that the user did not write. */
const HARNESS_TEXT =
  /^\s*(?:<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|system-reminder|environment_context|user_instructions|user-prompt-submit-hook|turn_aborted)\b|\[Request interrupted by user|Caveat: The messages below were generated|# AGENTS\.md instructions)/;

/** Input fields that say what a tool call was about, most telling first. */
const DETAIL_KEYS = ['file_path', 'notebook_path', 'path', 'command', 'cmd', 'pattern', 'url', 'query', 'description', 'prompt', 'skill'];

function toolDetail(input: unknown): string | null {
  if (typeof input === 'string') return input.trim() || null;
  if (!isObj(input)) return null;
  for (const k of DETAIL_KEYS) {
    const v = input[k];
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return (v as string[]).join(' ');
  }
  return null;
}

function blocksOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObj) : [];
}

function claudeMessage(o: Json, offset: number, end: number): LineResult {
  const type = o.type;
  if (type !== 'user' && type !== 'assistant') return 'skip';
  if (o.isMeta === true || o.isSidechain === true || o.isCompactSummary === true || o.isVisibleInTranscriptOnly === true) return 'skip';
  const message = o.message;
  if (!isObj(message)) return 'skip';
  // Claude Code's own notices in the assistant's place (API errors, "Autocompact is thrashing"):
  // model "<synthetic>", flagged isApiErrorMessage. Neither the user nor the model said them.
  if (o.isApiErrorMessage === true || message.model === '<synthetic>') return 'skip';
  const texts: string[] = [];
  const tools: ToolCall[] = [];
  for (const b of blocksOf(message.content)) {
    if (b.type === 'text') {
      const t = str(b.text);
      if (t?.trim() && !HARNESS_TEXT.test(t)) texts.push(t.trim());
    } else if (b.type === 'tool_use' && type === 'assistant') {
      const name = str(b.name);
      if (name) tools.push({ name, detail: toolDetail(b.input) });
    }
    // thinking, redacted_thinking, tool_result, image: not archived
  }
  if (texts.length === 0 && tools.length === 0) return 'skip';
  return { role: type, uuid: str(o.uuid), offset, end, timestamp: str(o.timestamp), text: texts.join('\n\n'), tools };
}

function codexMessage(o: Json, offset: number, end: number): LineResult {
  const p = o.payload;
  if (!isObj(p)) return 'skip';
  const timestamp = str(o.timestamp);
  if (p.type === 'message') {
    const role = p.role;
    if (role !== 'user' && role !== 'assistant') return 'skip';
    const texts = blocksOf(p.content)
      .map((b) => str(b.text))
      .filter((t): t is string => !!t && !!t.trim() && !HARNESS_TEXT.test(t))
      .map((t) => t.trim());
    if (texts.length === 0) return 'skip';
    return { role, uuid: null, offset, end, timestamp, text: texts.join('\n\n'), tools: [] };
  }
  if (p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call') {
    const name = str(p.name) ?? (p.type === 'local_shell_call' ? 'shell' : null);
    if (!name) return 'skip';
    let input: unknown = p.arguments ?? p.input ?? p.action;
    if (typeof input === 'string') {
      try {
        input = JSON.parse(input);
      } catch {
        /* free-form input: keep the string */
      }
    }
    return { role: 'assistant', uuid: null, offset, end, timestamp, text: '', tools: [{ name, detail: toolDetail(input) }] };
  }
  return 'skip';
}

/** Parses one transcript line. `offset`/`end` are its byte range in the file. */
export function parseTranscriptLine(line: string, offset: number, end: number): LineResult {
  if (line.trim() === '') return 'skip';
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return 'malformed';
  }
  if (!isObj(o)) return 'malformed';
  if (o.type === 'response_item') return codexMessage(o, offset, end);
  if (o.type === 'compacted') return isObj(o.payload) && typeof o.payload.message === 'string' ? { compacted: o.payload.message } : 'skip';
  return claudeMessage(o, offset, end);
}
