// The part of a context pack that says who the user is and how they want the agent to work:
// ROOT.md's Profile and Rules, first in the pack. Rules are kept whole first (there are few, and
// breaking one is what a user notices); then profile lines, every category's best line first and
// then each category in proportion to its size in ROOT (ROOT lists each category best first), so
// a small budget still covers every side of the user's life. Links become plain dates: an agent
// reads the node by its date, and the characters are better spent on facts.
import type { Measure } from './fit.js';
import { ALSO_LINE, ALSO_SEPARATOR } from '../compose/root-sections.js';

const PACK_ALSO = '- Also: ';

interface ProfileGroup {
  heading: string;
  /** `- fact (date)` lines. */
  lines: string[];
  /** The digests of the group's `- Also:` line, without their dates. */
  also: string[];
}

export interface ProfileSections {
  /** `### Category` groups, in ROOT's order. */
  groups: ProfileGroup[];
  rules: string[];
  /** ROOT's body without the two sections. */
  rest: string;
}

/** `([05-29](daily/2023-05-29.md))` → `(05-29)`. */
function plainDates(line: string): string {
  return line.replace(/\(\[([^\]]+)\]\([^)]*\)\)/g, '($1)');
}

/** Splits ROOT's body into its Profile groups, its Rules and everything else. */
export function splitProfile(body: string): ProfileSections {
  const groups: ProfileSections['groups'] = [];
  const rules: string[] = [];
  const rest: string[] = [];
  let section: 'profile' | 'rules' | 'other' = 'other';
  for (const line of body.split('\n')) {
    const h2 = /^##\s+(.*)$/.exec(line);
    if (h2) {
      section = /^profile\b/i.test(h2[1]!) ? 'profile' : /^rules\b/i.test(h2[1]!) ? 'rules' : 'other';
      if (section === 'other') rest.push(line);
      continue;
    }
    if (section === 'other') rest.push(line);
    else if (section === 'rules') {
      if (/^\s*[-*]\s/.test(line)) rules.push(plainDates(line));
    } else if (/^###\s/.test(line)) groups.push({ heading: line, lines: [], also: [] });
    else if (/^\s*[-*]\s/.test(line)) {
      if (!groups.length) groups.push({ heading: '', lines: [], also: [] });
      const g = groups[groups.length - 1]!;
      const also = ALSO_LINE.exec(line);
      // The pack keeps a category's digests on one line, without their months.
      if (also) g.also.push(...line.slice(also[0].length).split(ALSO_SEPARATOR));
      else g.lines.push(plainDates(line));
    }
  }
  return { groups, rules, rest: rest.join('\n').replace(/^\n+/, '') };
}

export interface ProfilePart {
  text: string;
  /** Lines of the profile and rules left out for the budget. */
  dropped: number;
}

/** The pack's profile part within `allowance`, or null when ROOT has neither section. */
export function fitProfile(p: ProfileSections, allowance: number, m: Measure): ProfilePart | null {
  const items = p.groups.map((g) => [...g.lines, ...g.also]);
  const total = p.rules.length + items.reduce((n, l) => n + l.length, 0);
  if (total === 0) return null;
  const profileTitle = '## What the user has told me · ROOT.md (Profile)';
  const rulesTitle = '## How the user wants me to work · ROOT.md (Rules)';
  let left = allowance;
  const rules: string[] = [];
  if (p.rules.length) {
    left -= m(rulesTitle) + 2;
    for (const r of p.rules) {
      const c = m(r) + 1;
      if (c > left) break;
      rules.push(r);
      left -= c;
    }
  }
  const taken = p.groups.map(() => 0);
  if (items.some((l) => l.length)) {
    left -= m(profileTitle) + 2;
    // Each category in proportion to its size in ROOT (ROOT gave the profile's room by rank),
    // every category's best line first: the next line taken is the one whose category has
    // shown the smallest part of itself so far.
    const full = p.groups.map(() => false);
    for (;;) {
      let pick = -1;
      items.forEach((l, k) => {
        if (full[k] || taken[k]! >= l.length) return;
        if (pick < 0 || taken[k]! / l.length < taken[pick]! / items[pick]!.length) pick = k;
      });
      if (pick < 0) break;
      const g = p.groups[pick]!;
      const i = taken[pick]!;
      const isAlso = i >= g.lines.length;
      const c =
        m(items[pick]![i]!) +
        (isAlso ? (i === g.lines.length ? m(PACK_ALSO) + 1 : m(ALSO_SEPARATOR)) : 1) +
        (i === 0 && g.heading ? m(g.heading) + 1 : 0);
      if (c > left) {
        full[pick] = true; // its next lines are not tried: a category keeps a prefix
        continue;
      }
      taken[pick]!++;
      left -= c;
    }
  }
  const kept = p.groups.map((g, k) => {
    const lines = g.lines.slice(0, taken[k]);
    const also = g.also.slice(0, Math.max(0, taken[k]! - g.lines.length));
    return also.length ? [...lines, PACK_ALSO + also.join(ALSO_SEPARATOR)] : lines;
  });
  const out: string[] = [];
  const shown = taken.reduce((n, k) => n + k, 0);
  if (shown) {
    out.push(profileTitle);
    p.groups.forEach((g, k) => {
      if (kept[k]!.length) out.push(...(g.heading ? [g.heading] : []), ...kept[k]!);
    });
  }
  if (rules.length) {
    if (out.length) out.push('');
    out.push(rulesTitle, ...rules);
  }
  if (!out.length) return null;
  return { text: out.join('\n'), dropped: total - shown - rules.length };
}
