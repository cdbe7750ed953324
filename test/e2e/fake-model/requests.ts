// Reading a recorded model request the same way whatever its wire format: the system prompt,
// the user's text, the tools offered, and the results of tool calls sent back to the model.
import type { Wire } from './wire.js';

export interface ModelRequest {
  /** 1-based order of arrival. */
  n: number;
  wire: Wire;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  stream: boolean;
  at: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Every string in a content value (a string, or blocks with text/content/output fields). */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).filter(Boolean).join('\n');
  if (!isObj(v)) return '';
  for (const k of ['text', 'content', 'output', 'input_text']) if (k in v) return textOf(v[k]);
  return '';
}

/** The system prompt (Anthropic `system`, Responses `instructions` and developer/system items, Chat system messages). */
export function systemText(r: ModelRequest): string {
  const b = r.body;
  const parts: string[] = [];
  if (r.wire === 'anthropic') parts.push(textOf(b.system));
  if (r.wire === 'responses') parts.push(textOf(b.instructions));
  const list = r.wire === 'responses' ? arr(b.input) : arr(b.messages);
  for (const m of list) if (isObj(m) && (m.role === 'system' || m.role === 'developer')) parts.push(textOf(m.content));
  return parts.filter(Boolean).join('\n');
}

export interface Turn {
  role: string;
  text: string;
}

/** The conversation's messages as role and text (tool traffic left out). */
export function turns(r: ModelRequest): Turn[] {
  const list = r.wire === 'responses' ? arr(r.body.input) : arr(r.body.messages);
  const out: Turn[] = [];
  for (const m of list) {
    if (!isObj(m) || typeof m.role !== 'string') continue;
    if (r.wire === 'anthropic' && Array.isArray(m.content)) {
      const text = m.content
        .filter((c) => isObj(c) && c.type === 'text')
        .map(textOf)
        .join('\n');
      if (text) out.push({ role: m.role, text });
    } else out.push({ role: m.role, text: textOf(m.content) });
  }
  return out;
}

/** The text of the user's messages. */
export function userText(r: ModelRequest): string {
  return turns(r)
    .filter((t) => t.role === 'user')
    .map((t) => t.text)
    .join('\n');
}

export function lastUserText(r: ModelRequest): string {
  return (
    turns(r)
      .filter((t) => t.role === 'user')
      .at(-1)?.text ?? ''
  );
}

/** Names of the tools offered to the model. */
export function toolNames(r: ModelRequest): string[] {
  const names: string[] = [];
  for (const t of arr(r.body.tools)) {
    if (!isObj(t)) continue;
    if (typeof t.name === 'string') names.push(t.name);
    else if (isObj(t.function) && typeof t.function.name === 'string') names.push(t.function.name);
    // Responses namespaces (Codex groups an MCP server's tools under `mcp__<server>`).
    for (const sub of arr(t.tools)) if (isObj(sub) && typeof sub.name === 'string') names.push(`${String(t.name ?? '')}__${sub.name}`);
  }
  return names;
}

/** The conversation items of a request: `messages`, or the Responses `input` list. */
function itemsOf(r: ModelRequest): unknown[] {
  return r.wire === 'responses' ? arr(r.body.input) : arr(r.body.messages);
}

function resultsIn(r: ModelRequest, items: unknown[]): string[] {
  const out: string[] = [];
  for (const m of items) {
    if (!isObj(m)) continue;
    if (r.wire === 'anthropic') {
      for (const c of arr(m.content)) if (isObj(c) && c.type === 'tool_result') out.push(textOf(c.content));
    } else if (r.wire === 'responses') {
      if (m.type === 'function_call_output' || m.type === 'custom_tool_call_output' || m.type === 'mcp_call_output')
        out.push(textOf(m.output));
    } else if (m.role === 'tool') out.push(textOf(m.content));
  }
  return out;
}

/** The results of tool calls sent back to the model, newest last. */
export function toolResults(r: ModelRequest): string[] {
  return resultsIn(r, itemsOf(r));
}

/** Tool results that came after the latest message containing `text` (the current turn's). */
export function toolResultsSince(r: ModelRequest, text: string): string[] {
  const items = itemsOf(r);
  const needle = JSON.stringify(text).slice(1, -1);
  let at = -1;
  items.forEach((m, i) => {
    if (JSON.stringify(m).includes(needle)) at = i;
  });
  return at < 0 ? [] : resultsIn(r, items.slice(at + 1));
}

/** The whole request as text: anything the model was sent. */
export function requestText(r: ModelRequest): string {
  return JSON.stringify(r.body);
}
