// A user's redaction pattern runs over every line hipo writes, reads back or sends. A repeated
// group that can match the same text in more than one way takes exponential time on a line that
// almost matches (the engine tries every way before it gives up), and would hang compaction with
// no limit: such patterns are refused when the config is loaded, with the reason. Three shapes
// are refused, each found by a small look at the pattern's structure (a full ambiguity analysis,
// or a library such as redos-detector, is slow and refuses ordinary patterns like `\s*\S+`):
//   - inside a repeated group, a run (a repeated part) not always followed by a character the run
//     cannot match: later in the same repetition, or, where the repetition may end right after the
//     run, first in the next one. Refused: `(a+)+`, `(\w*\s?)*`, `(?:\w+\s*)+`, `(?:[a-z0-9-]+\.?)+`
//     (the dot may be missing), `(?:[a-z.]+\.)+` (the run matches dots too), `(?:\.?[a-z]+)+` (the
//     next repetition may start with a letter). With such a character the run must stop at the
//     first one, so each repetition splits one way only: `(?:[a-z0-9-]+\.)+example\.com`,
//     `(?:[A-Z0-9]+-)+KEY`, `[a-z]+(?:\.[a-z]+)+`, `\w+(?:-\w+)+` pass. Characters are read from
//     first characters (a lookahead is none, a repetition that can be empty starts with nothing)
//     and compared with every character the run can match; the next repetition's must also differ
//     from what may still come in this one (`(?:\.[a-z]+(?:\.x|))+`: `.a.x` is one repetition or
//     two). After the last repetition the run may give characters back to what follows the group
//     (`(?:\.[a-z]+)+[a-z]`): one choice, made once, as in `[a-z]+[a-z]`;
//   - inside a repeated group, alternatives that can start with the same character: `(\w|\d)+`,
//     `(?:\s|\t)+` (a run of digits is one `\w` or one `\d` per character, 2^n ways);
//   - inside a repeated group, a part repeated a varying number of times that can also match
//     what comes after it: `(\w\w?)+`, `(a{1,3})+` (a run splits into parts in many ways).
// "Repeated" is without bound, or more than 16 times: a small bound keeps the ways few. Runs
// are checked in a group repeated 3 to 16 times too: k repetitions split a run of n characters in
// (n choose k) ways, and `(a+){1,16}x` takes seconds on 26 characters (`(a+){2}` is `a+a+`). The
// checks look at first characters only, so they refuse a few patterns that are in fact safe
// (`(a|ab)+`); a pattern can always be written so that its choices start differently.

const BIG = 16;

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
  return risk(top, 'once', { chars: [], certain: false, again: NOTHING });
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
  chars: Chars[];
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

/** Whether two alternatives can begin the same way: with one character, or both with nothing. */
function sameStart(a: First, b: First): boolean {
  return (a.empty && b.empty) || overlap(a.chars, b.chars);
}

// ---- the checks ----

const EXPONENTIAL = 'which can take exponential time on a line that almost matches';

function containsOpenRepeat(node: Node): boolean {
  if (node.kind === 'repeat') return node.max > BIG || containsOpenRepeat(node.node);
  if (node.kind === 'group') return node.alts.some((alt) => alt.some(containsOpenRepeat));
  return false;
}

/** Every character `node` can match (a lookaround's too: more is only more careful). */
function allChars(node: Node): Chars[] {
  if (node.kind === 'char') return [node.chars];
  if (node.kind === 'repeat') return allChars(node.node);
  if (node.kind === 'group') return node.alts.flatMap((alt) => alt.flatMap(allChars));
  return [];
}

/**
 * How often the groups around a node repeat it: `many` is without bound or more than 16 times,
 * `few` 3 to 16 times in all. `twice` is no more than `once`: `(a+){2}` is `a+a+`, which splits a
 * run in n ways, as any two runs side by side do; the checks start from 3.
 */
type Repeated = 'once' | 'twice' | 'few' | 'many';

/** Whether a run inside could be split in many ways by the repetitions around it. */
function splitsRuns(repeated: Repeated): boolean {
  return repeated === 'few' || repeated === 'many';
}

/** What can come right after a node, within one repetition of the group repeated around it. */
interface Next {
  /** What can come right after the node before that repetition ends. */
  chars: readonly Chars[];
  /** Whether something must come (at least one character) before that repetition may end. */
  certain: boolean;
  /** What the next repetition starts with (`empty`: it can start with nothing). */
  again: First;
}

const NOTHING: First = { chars: [], empty: true };

/** Every character that can come right after the node: in its repetition, or starting the next one. */
function following(next: Next): readonly Chars[] {
  return next.certain ? next.chars : [...next.chars, ...next.again.chars];
}

/**
 * Whether a run that can match `run` must end at one place when its group repeats on: at the first
 * character it cannot match, which must come later in the same repetition, or else start the next.
 */
function runEnds(run: readonly Chars[], next: Next): boolean {
  if (overlap(run, next.chars)) return false;
  if (next.certain) return true;
  // The repetition may end right after the run. The next one then starts with a character that
  // neither the run nor what may still come in this repetition can match, so the run stops there
  // too; or the group stops repeating, once, at the end (a choice there does not multiply).
  return !next.again.empty && !overlap(run, next.again.chars) && !overlap(next.again.chars, next.chars);
}

/**
 * The first risk in `node`. `repeated`: how the group around the node repeats;
 * `next`: then, what can come right after the node within that group's repetitions.
 */
function risk(node: Node, repeated: Repeated, next: Next): string | null {
  if (node.kind === 'group') {
    // A lookaround is matched once and never re-entered, so its choices cannot multiply.
    if (repeated === 'many' && !node.look)
      for (let a = 0; a < node.alts.length; a++)
        for (let b = a + 1; b < node.alts.length; b++)
          if (sameStart(firstOf(node.alts[a]!, 0), firstOf(node.alts[b]!, 0)))
            return (
              `repeats a group whose alternatives can start with the same character (alternatives ${a + 1} and ${b + 1} ` +
              `of the group at character ${node.at + 1}), ${EXPONENTIAL}; give each alternative its own first ` +
              `character, or join them into one character class (e.g. "\\w+" for "(\\w|\\d)+")`
            );
    // A run inside a lookaround has no separator to end it: refused in a repeat, as before.
    if (splitsRuns(repeated) && node.look && containsOpenRepeat(node)) return nested(node.at);
    for (const alt of node.alts) {
      for (let k = 0; k < alt.length; k++) {
        const rest = firstOf(alt, k + 1);
        const after = rest.empty
          ? { chars: [...rest.chars, ...next.chars], certain: next.certain, again: next.again }
          : { chars: rest.chars, certain: true, again: next.again };
        const r = risk(alt[k]!, node.look ? 'once' : repeated, after);
        if (r) return r;
      }
    }
    return null;
  }
  if (node.kind !== 'repeat') return null;
  const own = first(node.node);
  if (node.max > BIG) {
    // A run inside a repeated group is safe when the same repetition must go on with a character
    // the run cannot match, or the next one must start with one: the run ends there, one way only.
    if (splitsRuns(repeated) && !runEnds(allChars(node.node), next)) return nested(node.at);
    // Inside, what comes next is the next repetition (what follows the whole repeat is matched
    // once, at the end: a choice there does not multiply).
    return risk(node.node, 'many', { chars: [], certain: false, again: own });
  }
  if (repeated === 'many' && node.min < node.max && overlap(own.chars, following(next)))
    return (
      `repeats a group in which a part repeated a varying number of times (at character ${node.at + 1}) can also ` +
      `match what comes after it, so a line splits into parts in many ways, ${EXPONENTIAL}; give the part a fixed ` +
      `count or follow it by a different character (e.g. "\\w+" for "(\\w\\w?)+")`
    );
  if (node.max === 1) return risk(node.node, repeated, next);
  // k repetitions split a run of n characters in (n choose k) ways: from 3 on, the runs inside
  // must end one way, as in a group repeated without bound (what follows is matched once, or twice).
  const times = repeated === 'once' ? (node.max === 2 ? 'twice' : 'few') : repeated === 'twice' ? 'few' : repeated;
  if (times === 'few' && repeated !== 'few') return risk(node.node, 'few', { chars: [], certain: false, again: own });
  // Within a few repetitions, another may come right after the node: something must come when
  // what follows the repeat must, and that repetition cannot match nothing.
  return risk(node.node, times, { chars: [...own.chars, ...next.chars], certain: next.certain && !own.empty, again: next.again });
}

function nested(at: number): string {
  return (
    `repeats a group that itself repeats (nested quantifiers), ${EXPONENTIAL}: the run at character ${at + 1} ` +
    'is not always followed, in the same repetition or first in the next, by a character it cannot match; write it ' +
    'without a repeated group inside a repeat (e.g. "a+" for "(a+)+"), or end or start each repetition with such ' +
    'a character (e.g. "(?:[a-z0-9-]+\\.)+" or "[a-z]+(?:\\.[a-z]+)+")'
  );
}
