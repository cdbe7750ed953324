// Exclusion rules for summaries (spec, "Compaction Summary Rules" 5): code blocks, stack traces
// and ephemeral entries are left out. Verbatim copies below the threshold keep everything.

/** Markers of entries meant to be thrown away (Korean and English, from the spec). */
export const DEFAULT_EPHEMERAL_MARKERS = ['임시', '테스트 중', '나중에 삭제', 'temporary', 'test run', 'delete later'] as const;

export class ExclusionRules {
  private readonly ephemeral: RegExp;

  constructor(extraMarkers: readonly string[] = []) {
    const all = [...DEFAULT_EPHEMERAL_MARKERS, ...extraMarkers].map((m) => m.trim()).filter(Boolean);
    const escaped = all.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    // Latin markers must be whole words ("temporary", not "contemporary").
    this.ephemeral = new RegExp(escaped.map((m) => (/^[\x00-\x7f]+$/.test(m) ? `(?<![A-Za-z])${m}(?![A-Za-z])` : m)).join('|'), 'i');
  }

  /** Equal for rules that exclude the same entries (a cache key). */
  get key(): string {
    return this.ephemeral.source;
  }

  isEphemeral(text: string): boolean {
    return this.ephemeral.test(text);
  }
}

const TRACE_LINES = [
  /^\s*at\s+(?:async\s+)?[\w$.<>[\]]+.*\(.*:\d+(?::\d+)?\)\s*$/, // JS/Java: at fn (file:1:2)
  /^\s*at\s+(?:async\s+)?[\w$./\\:-]+:\d+:\d+\s*$/, // JS: at file:1:2
  /^\s*at\s+[\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)\s*$/, // Java
  /^\s*Traceback \(most recent call last\):/, // Python
  /^\s+File ".*", line \d+/, // Python frame
  /^\s*goroutine \d+ \[/, // Go
  /^\s*(?:thread '.*' panicked at|stack backtrace:)/, // Rust
  /^\s*#\d+\s+0x[0-9a-f]+ in /, // C/C++ backtrace
  /^\s*Exception in thread "/, // Java
  /^\s*Caused by: [\w.$]+(?:Exception|Error)/, // Java cause chain
  /^\s*\.\.\. \d+ more\s*$/, // Java elision
];

export function isStackTraceLine(line: string): boolean {
  return TRACE_LINES.some((re) => re.test(line));
}

/** Drops stack-trace lines from a block of text. */
export function stripStackTraces(text: string): string {
  if (!/^\s*at\s|Traceback|File "|goroutine \d|panicked|stack backtrace|#\d+\s+0x|Exception in|Caused by|\.\.\. \d+ more/m.test(text))
    return text;
  return text
    .split('\n')
    .filter((l) => !isStackTraceLine(l))
    .join('\n');
}
