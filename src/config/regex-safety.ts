// A user's redaction pattern runs over every line hipo writes, reads back or sends. A pattern
// with a repeated group that itself repeats (`(a+)+`, `(\w*\s?)*`) can take exponential time on
// a line that almost matches, and would hang compaction with no limit: such patterns are
// refused when the config is loaded, with the reason.

/** Why a pattern could backtrack catastrophically, or null when it has no nested repetition. */
export function nestedQuantifier(source: string): string | null {
  // One frame per open group: whether something inside it repeats without bound.
  const frames: boolean[] = [false];
  let i = 0;
  const unbounded = (at: number): { length: number; open: boolean } | null => {
    const c = source[at];
    if (c === '*' || c === '+') return { length: 1 + (source[at + 1] === '?' || source[at + 1] === '+' ? 1 : 0), open: true };
    if (c === '?') return { length: 1, open: false };
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(at));
      if (!m) return null;
      const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      return { length: m[0].length, open: max > 16 };
    }
    return null;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      i += 2;
    } else if (c === '[') {
      // A character class: skip to its closing bracket (one at the start is literal).
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else if (c === '(') {
      frames.push(false);
      i++;
      continue;
    } else if (c === ')') {
      const inner = frames.length > 1 ? frames.pop()! : false;
      const q = unbounded(i + 1);
      if (q?.open && inner)
        return 'repeats a group that itself repeats (nested quantifiers), which can take exponential time on a line that almost matches';
      frames[frames.length - 1] ||= inner || !!q?.open;
      i += 1 + (q?.length ?? 0);
      continue;
    } else {
      i++;
    }
    // The atom just passed may be repeated.
    const q = unbounded(i);
    if (q) {
      if (q.open) frames[frames.length - 1] = true;
      i += q.length;
    }
  }
  return null;
}
