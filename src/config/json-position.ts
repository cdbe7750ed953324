// Where a config or settings file stops being JSON, as a line and a column: V8 gives an offset for some
// mistakes ("at position 21"), none for others (Node 20: "Unexpected token 'x', "…" is not valid
// JSON"), and a line only in later versions. Called only after JSON.parse has failed.

/**
 * What to say of a file that JSON.parse refused: where, and V8's reason without its offset or its
 * quote of the text (which may hold a key or a password). `err` is what JSON.parse threw.
 */
export function jsonSyntaxProblem(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/, (?:\.\.\.)?".*$/s, '');
  const at = jsonErrorAt(text);
  return `is not valid JSON${at ? ` at line ${at.line}, column ${at.column}` : ''} (${reason})`;
}

/** 1-based line and column of the first character that is not JSON, or null when none is found. */
function jsonErrorAt(text: string): { line: number; column: number } | null {
  const at = errorOffset(text);
  if (at === null) return null;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return { line: text.slice(0, lineStart).split('\n').length, column: at - lineStart + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

function errorOffset(text: string): number | null {
  let i = 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const expect = (ch: string): void => {
    space();
    if (text[i] !== ch) fail();
    i++;
  };
  const string = (): void => {
    expect('"');
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < ' ') fail();
      if (ch === '"') break;
      if (ch === '\\') {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) fail();
        i = ESCAPE.lastIndex;
      } else i++;
    }
    i++;
  };
  /** The items of an object or array up to `close`, each read by `item`. */
  const items = (close: string, item: () => void): void => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === close) break;
      expect(',');
    }
    i++;
  };
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === '{')
      items('}', () => {
        string();
        expect(':');
        value();
      });
    else if (ch === '[') items(']', value);
    else if (ch === '"') string();
    else {
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      NUMBER.lastIndex = i;
      if (word) i += word.length;
      else if (NUMBER.test(text)) i = NUMBER.lastIndex;
      else fail();
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return null;
  } catch (err) {
    if (err instanceof Stop) return err.offset;
    return null; // nested too deep to follow
  }
}

class Stop {
  constructor(readonly offset: number) {}
}
