// Claude Code session transcripts as the platform writes them: one JSON object per line, with
// uuid/parentUuid chains, streamed assistant blocks on separate lines, tool_use/tool_result
// pairs, thinking blocks, meta lines, sidechains and compact summaries.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class TranscriptWriter {
  private n = 0;
  private parent: string | null = null;
  private clock: number;
  readonly lines: string[] = [];

  constructor(
    readonly sessionId: string,
    start = '2026-03-15T09:00:00.000Z',
    readonly cwd = '/home/dev/project',
  ) {
    this.clock = Date.parse(start);
  }

  private base(type: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const uuid = `${this.sessionId.slice(0, 8)}-0000-4000-8000-${String(++this.n).padStart(12, '0')}`;
    this.clock += 7_000;
    const o = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: '2.1.3',
      gitBranch: 'main',
      type,
      uuid,
      timestamp: new Date(this.clock).toISOString(),
      ...extra,
    };
    if (!extra.isSidechain) this.parent = uuid;
    return o;
  }

  private push(o: Record<string, unknown>): string {
    const line = JSON.stringify(o);
    this.lines.push(line);
    return line;
  }

  at(iso: string): this {
    this.clock = Date.parse(iso) - 7_000;
    return this;
  }

  user(text: string, extra: Record<string, unknown> = {}): this {
    this.push(this.base('user', { message: { role: 'user', content: text }, ...extra }));
    return this;
  }

  /** A user prompt written as content blocks (as the platform does for pasted text). */
  userBlocks(text: string): this {
    this.push(this.base('user', { message: { role: 'user', content: [{ type: 'text', text }] } }));
    return this;
  }

  private assistantLine(content: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
    return this.base('assistant', {
      message: {
        id: `msg_${this.n}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content,
        stop_reason: null,
        usage: { input_tokens: 10, output_tokens: 20 },
      },
      requestId: `req_${this.n}`,
      ...extra,
    });
  }

  assistant(text: string): this {
    this.push(this.assistantLine([{ type: 'text', text }]));
    return this;
  }

  thinking(text: string): this {
    this.push(this.assistantLine([{ type: 'thinking', thinking: text, signature: 'sig' }]));
    return this;
  }

  tool(name: string, input: Record<string, unknown>, result = 'ok', isError = false): this {
    const id = `toolu_${String(this.n + 1).padStart(6, '0')}`;
    this.push(this.assistantLine([{ type: 'tool_use', id, name, input }]));
    this.push(
      this.base('user', {
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }] },
        toolUseResult: { stdout: result },
      }),
    );
    return this;
  }

  meta(text: string): this {
    this.push(this.base('user', { isMeta: true, message: { role: 'user', content: text } }));
    return this;
  }

  sidechain(prompt: string, answer: string): this {
    this.push(this.base('user', { isSidechain: true, message: { role: 'user', content: prompt } }));
    this.push(this.assistantLine([{ type: 'text', text: answer }], { isSidechain: true }));
    return this;
  }

  compactSummary(text: string): this {
    this.push(
      this.base('system', {
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 150000 },
      }),
    );
    this.push(this.base('user', { isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: text } }));
    return this;
  }

  summaryLine(text: string): this {
    this.push({ type: 'summary', summary: text, leafUuid: this.parent });
    return this;
  }

  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  text(): string {
    return this.lines.map((l) => `${l}\n`).join('');
  }

  writeTo(path: string): string {
    writeFileSync(path, this.text());
    return path;
  }

  /** Appends the lines added since `from` (by index) to the file. */
  appendTo(path: string, from: number): void {
    appendFileSync(
      path,
      this.lines
        .slice(from)
        .map((l) => `${l}\n`)
        .join(''),
    );
  }
}

export function hookJson(event: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ hook_event_name: event, permission_mode: 'default', ...fields });
}

/**
 * A session of two exchanges (the staging proxy's port and health check) started on `day`,
 * written as `session.jsonl` in `root`: what the fault tests expect archived once, whatever
 * failed first.
 */
export function twoExchanges(root: string, session: string, day: string): string {
  return new TranscriptWriter(session, `${day}T09:00:00.000Z`, root)
    .user('Which port does the staging proxy listen on?')
    .assistant('8443, behind the load balancer.')
    .user('And the health check?')
    .assistant('GET /healthz every 10 s.')
    .writeTo(join(root, 'session.jsonl'));
}

/** The exchanges a raw log holds, by their headings. */
export const conversationTurns = (text: string): number => text.split('\n').filter((l) => l.startsWith('## Conversation')).length;
