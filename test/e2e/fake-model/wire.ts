// The three wire formats the agent CLIs speak, written as the real APIs write them: the event
// sequence of a streamed reply (server-sent events) and the JSON of a reply that is not streamed.
//   anthropic: Messages API (`POST /v1/messages`): message_start, content_block_start/delta/stop
//              per block (thinking, text, tool_use), message_delta with the stop reason, message_stop.
//   responses: OpenAI Responses (`POST /v1/responses`): response.created, output_item.added/done
//              per item (reasoning, message, function_call) with their deltas, response.completed.
//   chat:      OpenAI Chat Completions (`POST /v1/chat/completions`): chat.completion.chunk lines
//              (role, content deltas, tool_calls deltas, finish_reason, usage), then [DONE].

export type Wire = 'anthropic' | 'responses' | 'chat';

export interface ToolCall {
  /** Responses: the namespace the tool was offered under (Codex's `mcp__<server>`). */
  namespace?: string;
  name: string;
  input: Record<string, unknown>;
}

/** What the fake model answers: reasoning, text, tool calls, in that order. */
export interface Reply {
  thinking?: string;
  text?: string;
  toolCalls?: ToolCall[];
  /** Input tokens to report in the usage (a client decides when to compact from it). */
  inputTokens?: number;
  /** Answer with this HTTP error instead (e.g. a context overflow). */
  error?: { status: number; body: unknown };
}

export interface SseEvent {
  event?: string;
  data: unknown;
}

let seq = 0;
const id = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36).padStart(6, '0')}`;

/** Text cut into a few deltas, as a model streams it. */
function pieces(text: string): string[] {
  const words = text.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 4) out.push(words.slice(i, i + 4).join(''));
  return out.length ? out : [''];
}

const USAGE_IN = 1200;
const inTokens = (r: Reply): number => r.inputTokens ?? USAGE_IN;
const outTokens = (r: Reply): number => Math.max(1, Math.ceil(((r.text ?? '').length + JSON.stringify(r.toolCalls ?? []).length) / 4));

// ---------------------------------------------------------------- Anthropic Messages

function anthropicBlocks(r: Reply): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (r.thinking) blocks.push({ type: 'thinking', thinking: r.thinking, signature: 'c2lnbmF0dXJl' });
  if (r.text) blocks.push({ type: 'text', text: r.text });
  for (const t of r.toolCalls ?? []) blocks.push({ type: 'tool_use', id: id('toolu'), name: t.name, input: t.input });
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
  return blocks;
}

export function anthropicMessage(r: Reply, model: string): Record<string, unknown> {
  return {
    id: id('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content: anthropicBlocks(r),
    stop_reason: r.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: inTokens(r), output_tokens: outTokens(r), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

export function anthropicStream(r: Reply, model: string): SseEvent[] {
  const msg = anthropicMessage(r, model);
  const ev = (type: string, data: Record<string, unknown>): SseEvent => ({ event: type, data: { type, ...data } });
  const out: SseEvent[] = [
    ev('message_start', { message: { ...msg, content: [], stop_reason: null, usage: { ...(msg.usage as object), output_tokens: 1 } } }),
    ev('ping', {}),
  ];
  (msg.content as Record<string, unknown>[]).forEach((b, index) => {
    if (b.type === 'thinking') {
      out.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const p of pieces(b.thinking as string))
        out.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: p } }));
      out.push(ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } }));
    } else if (b.type === 'text') {
      out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const p of pieces(b.text as string)) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
    } else {
      out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }));
      const json = JSON.stringify(b.input);
      for (let i = 0; i < json.length; i += 24)
        out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 24) } }));
    }
    out.push(ev('content_block_stop', { index }));
  });
  out.push(
    ev('message_delta', {
      delta: { stop_reason: msg.stop_reason, stop_sequence: null },
      usage: { output_tokens: (msg.usage as { output_tokens: number }).output_tokens },
    }),
  );
  out.push(ev('message_stop', {}));
  return out;
}

// ---------------------------------------------------------------- OpenAI Responses

function responseItems(r: Reply): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (r.thinking) items.push({ id: id('rs'), type: 'reasoning', summary: [{ type: 'summary_text', text: r.thinking }] });
  if (r.text || !r.toolCalls?.length) {
    items.push({
      id: id('msg'),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: r.text ?? '', annotations: [] }],
    });
  }
  for (const t of r.toolCalls ?? [])
    items.push({
      id: id('fc'),
      type: 'function_call',
      status: 'completed',
      call_id: id('call'),
      ...(t.namespace ? { namespace: t.namespace } : {}),
      name: t.name,
      arguments: JSON.stringify(t.input),
    });
  return items;
}

function responseObject(r: Reply, model: string, items: Record<string, unknown>[], status: string): Record<string, unknown> {
  const usage = {
    input_tokens: inTokens(r),
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outTokens(r),
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inTokens(r) + outTokens(r),
  };
  return {
    id: id('resp'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output: items,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    ...(status === 'completed' ? { usage } : { usage: null }),
  };
}

export function responsesObject(r: Reply, model: string): Record<string, unknown> {
  return responseObject(r, model, responseItems(r), 'completed');
}

export function responsesStream(r: Reply, model: string): SseEvent[] {
  const items = responseItems(r);
  const done = responseObject(r, model, items, 'completed');
  const started = { ...done, status: 'in_progress', output: [], usage: null };
  let n = 0;
  const ev = (type: string, data: Record<string, unknown>): SseEvent => ({ event: type, data: { type, sequence_number: n++, ...data } });
  const out: SseEvent[] = [ev('response.created', { response: started }), ev('response.in_progress', { response: started })];
  items.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === 'reasoning') {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, summary: [] } }));
      const text = (item.summary as { text: string }[])[0]!.text;
      out.push(
        ev('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } }),
      );
      for (const p of pieces(text))
        out.push(ev('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta: p }));
      out.push(ev('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text }));
      out.push(
        ev('response.reasoning_summary_part.done', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text } }),
      );
    } else if (item.type === 'message') {
      const text = (item.content as { text: string }[])[0]!.text;
      out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
      out.push(
        ev('response.content_part.added', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        }),
      );
      for (const p of pieces(text)) out.push(ev('response.output_text.delta', { item_id, output_index, content_index: 0, delta: p }));
      out.push(ev('response.output_text.done', { item_id, output_index, content_index: 0, text }));
      out.push(
        ev('response.content_part.done', { item_id, output_index, content_index: 0, part: { type: 'output_text', text, annotations: [] } }),
      );
    } else {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }));
      out.push(ev('response.function_call_arguments.delta', { item_id, output_index, delta: item.arguments }));
      out.push(ev('response.function_call_arguments.done', { item_id, output_index, arguments: item.arguments }));
    }
    out.push(ev('response.output_item.done', { output_index, item }));
  });
  out.push(ev('response.completed', { response: done }));
  return out;
}

// ---------------------------------------------------------------- OpenAI Chat Completions

export function chatCompletion(r: Reply, model: string): Record<string, unknown> {
  const calls = (r.toolCalls ?? []).map((t) => ({
    id: id('call'),
    type: 'function',
    function: { name: t.name, arguments: JSON.stringify(t.input) },
  }));
  return {
    id: id('chatcmpl'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: r.text ?? null,
          ...(r.thinking ? { reasoning_content: r.thinking } : {}),
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: inTokens(r), completion_tokens: outTokens(r), total_tokens: inTokens(r) + outTokens(r) },
  };
}

export function chatStream(r: Reply, model: string, withUsage: boolean): SseEvent[] {
  const base = { id: id('chatcmpl'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
    data: { ...base, choices: [{ index: 0, delta, finish_reason: finish }] },
  });
  const out: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  if (r.thinking) for (const p of pieces(r.thinking)) out.push(chunk({ reasoning_content: p }));
  if (r.text) for (const p of pieces(r.text)) out.push(chunk({ content: p }));
  (r.toolCalls ?? []).forEach((t, index) => {
    out.push(chunk({ tool_calls: [{ index, id: id('call'), type: 'function', function: { name: t.name, arguments: '' } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify(t.input) } }] }));
  });
  out.push(chunk({}, r.toolCalls?.length ? 'tool_calls' : 'stop'));
  if (withUsage)
    out.push({
      data: {
        ...base,
        choices: [],
        usage: { prompt_tokens: inTokens(r), completion_tokens: outTokens(r), total_tokens: inTokens(r) + outTokens(r) },
      },
    });
  out.push({ data: '[DONE]' });
  return out;
}

export function sseText(events: SseEvent[]): string[] {
  return events.map(
    (e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`,
  );
}
