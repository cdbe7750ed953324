// A user's redaction pattern runs over every line hipo writes, reads back or sends. A repeated
// group that can match the same text in more than one way takes exponential time on a line that
// almost matches (the engine tries every way before it gives up), and would hang compaction with
// no limit: such patterns are refused when the config is loaded, with the reason. One rule, from a
// small look at the pattern's structure (a full ambiguity analysis, or a library such as
// redos-detector, is slow and refuses ordinary patterns like `\s*\S+`):
//   inside a group repeated more than twice, the choices the next character does not settle
//   (which alternative; whether a part repeats again or is there at all) must leave at most 256
//   ways to match a line, and none in a group repeated without bound.
// The next character is compared with what can start each option, and, for an option that can
// match nothing, with what can come after it, up to the next repetition of the outermost repeated
// group. So `(a+)+`, `(?:\w+\s*)+`, `(?:[a-z0-9-]+\.?)+` (the dot may be missing), `(?:[a-z.]+\.)+`
// (the run matches dots too), `(\w|\d)+`, `(\w\w?)+` and `(?:\.[a-z](?:\.x|))+` (`.a.x` is one
// repetition or two) are refused; a run stopped by a character it cannot match, an alternative or
// an optional part told by its first character, pass: `(?:[a-z0-9-]+\.)+example\.com`,
// `[a-z]+(?:\.[a-z]+)+`, `"(?:[^"\\]|\\.)*"`, `(?:\d{3}-?)+`. What follows the outermost repeated
// group is left out: it is tried once the group stops, a choice made once (`(?:\.[a-z]+)+[a-z]`
// is no worse than `[a-z]+[a-z]`).
// Choices left open multiply over the repetitions: k of them with two options each, 2^k ways;
// `(\w|\d){1,16}x` tries 65536 on a run of digits, `(a{1,16}){1,16}x` over 10^19 (seconds on 26
// characters), while an address's octets `(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}` leave 64. Twice is
// not counted: `(a+){2}` is `a+a+`, as cheap as any two runs side by side. The check looks at first
// characters only, so it refuses a few patterns that are in fact safe (`(a|ab)+`); a pattern can
// always be written so that its choices start differently.

/**
 * One character's worth of pattern (`a`, `\d`, `[^"\\]`, `.`) with the flags it is read under, or any
 * character (a backreference).
 */
type Chars = { source: string; flags: string } | 'any';

type Node =
  | { kind: 'char'; chars: Chars }
  | { kind: 'zero' }
  | { kind: 'group'; alts: Node[][]; at: number; look: boolean }
  | { kind: 'repeat'; node: Node; min: number; max: number; at: number };

/** Why a pattern could backtrack catastrophically, and how to write it instead; null when it is safe. */
export function backtrackingRisk(source: string): string | null {
  const top: Node = { kind: 'group', alts: parse(source, modifierFlags(source)), at: 0, look: false };
  const { count, open } = ways(top, 1, []);
  if (count <= MAX_WAYS) return null;
  const many =
    count === Infinity ? 'in more ways the longer it is' : `in ${count > 1e6 ? 'over a million' : `up to ${count}`} ways from one position`;
  return (
    `repeats a group in which a choice is not settled by the next character (${open}), so a line can match it ${many}, ` +
    `which can take exponential time on a line that almost matches (nested quantifiers, overlapping alternatives): ${RULE}; ` +
    'give each choice its own first character, or end a repeated part with a character it cannot match (e.g. "\\w+" for ' +
    '"(\\w|\\d)+", "(?:[a-z0-9-]+\\.)+" for "(?:[a-z0-9-]+\\.?)+")'
  );
}

/**
 * The flags a modifier group (`(?i:…)`, `(?s:…)`, on engines that have them) turns on anywhere in
 * the pattern. Sets are then compared under them everywhere: `[A-Z]` and `k` share a character
 * once case is ignored, `.` and `\n` once a dot matches newlines. More overlap only refuses more.
 */
function modifierFlags(source: string): string {
  let flags = '';
  for (const m of source.matchAll(/\(\?([a-z]*)(?:-[a-z]*)?:/g))
    for (const f of 'is') if (m[1]!.includes(f) && !flags.includes(f)) flags += f;
  return flags;
}

// ---- parsing (the pattern already compiled as a RegExp without the `u` flag) ----

function parse(source: string, flags: string): Node[][] {
  let i = 0;
  const alternatives = (): Node[][] => {
    const alts: Node[][] = [[]];
    while (i < source.length && source[i] !== ')') {
      if (source[i] === '|') {
        i++;
        alts.push([]);
        continue;
      }
      const at = i;
      const atom = parseAtom();
      const q = quantifier();
      alts[alts.length - 1]!.push(q ? { kind: 'repeat', node: atom, min: q.min, max: q.max, at } : atom);
    }
    return alts;
  };
  const parseAtom = (): Node => {
    const c = source[i]!;
    if (c === '(') {
      const at = i;
      let look = false;
      i++;
      if (source[i] === '?') {
        const head = /^\?(?:[a-z]*(?:-[a-z]*)?:|=|!|<=|<!|<[^>]*>)/.exec(source.slice(i))?.[0] ?? '?';
        look = ['?=', '?!', '?<=', '?<!'].includes(head);
        i += head.length;
      }
      const alts = alternatives();
      i++; // the closing parenthesis
      return { kind: 'group', alts, at, look };
    }
    if (c === '[') {
      // A character class: up to its closing bracket (one at the start is literal).
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      return char(source.slice(i, (i = j + 1)));
    }
    if (c === '^' || c === '$') {
      i++;
      return { kind: 'zero' };
    }
    if (c !== '\\') return char(source[i++]!);
    const e = source[i + 1] ?? '';
    if (e === 'b' || e === 'B') {
      i += 2;
      return { kind: 'zero' };
    }
    if (/[1-9]/.test(e) || (e === 'k' && source.includes('(?<'))) {
      // A backreference may repeat anything the group matched.
      i += /^\\(?:\d+|k<[^>]*>)/.exec(source.slice(i))?.[0].length ?? 2;
      return { kind: 'char', chars: 'any' };
    }
    const long = /^\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|c[A-Za-z]|0[0-7]{0,2})/.exec(source.slice(i));
    return char(source.slice(i, (i += long ? long[0].length : 2)));
  };
  const quantifier = (): { min: number; max: number } | null => {
    const m = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(source.slice(i));
    if (!m) return null;
    i += m[0].length;
    if (m[1]) return { min: m[1] === '+' ? 1 : 0, max: m[1] === '?' ? 1 : Infinity };
    return { min: Number(m[2]), max: m[3] === undefined ? Number(m[2]) : m[4] === '' ? Infinity : Number(m[4]) };
  };
  const char = (s: string): Node => ({ kind: 'char', chars: { source: s, flags } });
  return alternatives();
}

// ---- what a node can start with ----

interface First {
  chars: readonly Chars[];
  /** Whether the node can match the empty string. */
  empty: boolean;
}

function first(node: Node): First {
  switch (node.kind) {
    case 'char':
      return { chars: [node.chars], empty: node.chars === 'any' };
    case 'zero':
      return { chars: [], empty: true };
    case 'group': {
      if (node.look) return { chars: [], empty: true };
      const each = node.alts.map((alt) => firstOf(alt, 0));
      return { chars: each.flatMap((f) => f.chars), empty: each.some((f) => f.empty) };
    }
    case 'repeat': {
      const f = first(node.node);
      return { chars: f.chars, empty: f.empty || node.min === 0 };
    }
  }
}

/** What `seq` from `from` on can start with. */
function firstOf(seq: readonly Node[], from: number): First {
  const chars: Chars[] = [];
  for (let k = from; k < seq.length; k++) {
    const f = first(seq[k]!);
    chars.push(...f.chars);
    if (!f.empty) return { chars, empty: false };
  }
  return { chars, empty: true };
}

// Characters a set is tried on: ASCII, and a few others that classes tell apart (no-break and
// ideographic spaces, line separators, accented, Cyrillic and CJK letters, a byte order mark).
const PROBES = [...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)), ...'\u00a0\u00e9\u0430\u2028\u3000\u4e2d\ufeff'];
const members = new Map<string, Set<string>>();

function memberSet({ source, flags }: { source: string; flags: string }): Set<string> | null {
  const key = `${flags}/${source}`;
  let set = members.get(key);
  if (!set) {
    try {
      const re = new RegExp(`^(?:${source})$`, flags);
      set = new Set(PROBES.filter((c) => re.test(c)));
    } catch {
      return null;
    }
    members.set(key, set);
  }
  return set;
}

/** Whether some character can start both `a` and `b`. */
function overlap(a: readonly Chars[], b: readonly Chars[]): boolean {
  for (const x of a)
    for (const y of b) {
      if (x === 'any' || y === 'any') return true;
      const sx = memberSet(x);
      const sy = memberSet(y);
      if (!sx || !sy) return true;
      for (const c of sx) if (sy.has(c)) return true;
    }
  return false;
}

// ---- the check ----

/** How many ways the choices left open may match a line from one position, in all (`(\w|\d){8}`: 256). */
const MAX_WAYS = 256;

const RULE =
  'inside a group repeated more than twice, the choices the next character does not settle (which alternative; whether ' +
  'a part repeats again or is there at all, counting what may come after it up to the next repetition) must leave at most ' +
  `${MAX_WAYS} ways, and none in a group repeated without bound`;

interface Ways {
  /** How many ways the node can match one text, counting only the choices left open (Infinity: without bound). */
  count: number;
  /** The first choice left open, in the pattern's order. */
  open: string | null;
}

const ONE: Ways = { count: 1, open: null };

function containsOpenRepeat(node: Node): boolean {
  if (node.kind === 'repeat') return node.max === Infinity || containsOpenRepeat(node.node);
  if (node.kind === 'group') return node.alts.some((alt) => alt.some(containsOpenRepeat));
  return false;
}

/** Whether two options can begin the same way: with one character, or both with nothing. */
function unsettled(a: First, b: First): boolean {
  return (a.empty && b.empty) || overlap(a.chars, b.chars);
}

/** What an option is chosen on: its first characters, and what follows it when it can match nothing. */
function lookahead(f: First, follow: readonly Chars[]): First {
  return f.empty ? { chars: [...f.chars, ...follow], empty: true } : f;
}

/**
 * How many ways `node` can match a text. `times`: how often the groups around it repeat it; from 3
 * on its choices count. `follow`: what can come right after it, up to the next repetition of the
 * outermost repeated group around it. What follows that group is left out: it is tried once the
 * group stops, a choice made once (`[a-z]+(?:\.[a-z]+)+[a-z]` is no worse than `[a-z]+[a-z]`).
 */
function ways(node: Node, times: number, follow: readonly Chars[]): Ways {
  if (node.kind === 'char' || node.kind === 'zero') return ONE;
  if (node.kind === 'group') {
    // A lookaround is matched on its own: anything may come after what it matches.
    const after = node.look ? (['any'] as const) : follow;
    // Nor is it settled: tried again at each repetition, a run inside scans the rest of the line
    // each time (`(?:(?=[a-z]+\.)x)+!` takes seconds on 3,000 characters).
    if (node.look && times >= 3 && containsOpenRepeat(node))
      return { count: Infinity, open: `the lookaround at character ${node.at + 1} holds a repeat without bound` };
    let open: string | null = null;
    if (times >= 3)
      for (let a = 0; a < node.alts.length && !open; a++)
        for (let b = a + 1; b < node.alts.length && !open; b++) {
          const fa = firstOf(node.alts[a]!, 0);
          const fb = firstOf(node.alts[b]!, 0);
          if (!unsettled(lookahead(fa, after), lookahead(fb, after))) continue;
          const group = `of the group at character ${node.at + 1}`;
          open =
            overlap(fa.chars, fb.chars) || !(fa.empty || fb.empty)
              ? `alternatives ${a + 1} and ${b + 1} ${group} can start with the same character`
              : fa.empty && fb.empty
                ? `alternatives ${a + 1} and ${b + 1} ${group} can both match nothing`
                : `alternative ${fa.empty ? a + 1 : b + 1} ${group} can match nothing, and alternative ${fa.empty ? b + 1 : a + 1} ` +
                  'can start with a character that can also come after the group';
        }
    const each = node.alts.map((alt) => {
      let count = 1;
      let inner: string | null = null;
      for (let k = 0; k < alt.length; k++) {
        const rest = firstOf(alt, k + 1);
        const w = ways(alt[k]!, times, rest.empty ? [...rest.chars, ...after] : rest.chars);
        count *= w.count;
        inner ??= w.open;
      }
      return { count, open: inner };
    });
    // Alternatives told apart by their first character: one of them matches a given text.
    const count = open ? each.reduce((sum, w) => sum + w.count, 0) : Math.max(...each.map((w) => w.count));
    return { count, open: open ?? each.find((w) => w.open)?.open ?? null };
  }
  if (node.max === 0) return ONE;
  const own = first(node.node);
  // Inside, what comes next may be the part's next repetition; what follows it counts once the
  // groups around repeat it too.
  const inner = ways(node.node, times * node.max, [...(node.max >= 2 ? own.chars : []), ...(times >= 2 ? follow : [])]);
  const open =
    times >= 3 && node.min < node.max && unsettled(lookahead(own, follow), { chars: follow, empty: true })
      ? own.empty
        ? `the repeat at character ${node.at + 1} can match nothing`
        : `the ${node.max === 1 ? 'optional part' : 'repeat'} at character ${node.at + 1} can ` +
          `${node.max === 1 ? 'start' : 'go on'} with a character that can also come after it`
      : null;
  const b = inner.count;
  let count: number;
  if (node.max === Infinity) count = b === 1 && !open ? 1 : Infinity;
  else if (!open) count = b ** node.max;
  else {
    // How many repetitions is open too: any number from min to max of them.
    count = b === 1 ? node.max - node.min + 1 : 0;
    for (let k = node.min; b > 1 && k <= node.max && count < Infinity; k++) count += b ** k;
  }
  return { count, open: open ?? inner.open };
}
