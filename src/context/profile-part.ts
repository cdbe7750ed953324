// The part of a context pack that says who the user is and how they want the agent to work:
// ROOT.md's Profile and Rules, first in the pack. Rules are kept whole first (there are few, and
// breaking one is what a user notices); then profile lines, every category's best line first and
// then each category in proportion to its size in ROOT (ROOT lists each category best first), so
// a small budget still covers every side of the user's life. Links become plain dates: an agent
// reads the node by its date, and the characters are better spent on facts.
import type { Measure } from './fit.js';

export interface ProfileSections {
  /** `### Category` groups of `- fact (date)` lines, in ROOT's order. */
  groups: { heading: string; lines: string[] }[];
  rules: string[];
  /** ROOT's body without the two sections. */
  rest: string;
}

/** `([05-29](daily/2023-05-29.md))` → `(05-29)`. */
export function plainDates(line: string): string {
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
    } else if (/^###\s/.test(line)) groups.push({ heading: line, lines: [] });
    else if (/^\s*[-*]\s/.test(line)) {
      if (!groups.length) groups.push({ heading: '', lines: [] });
      groups[groups.length - 1]!.lines.push(plainDates(line));
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
  const total = p.rules.length + p.groups.reduce((n, g) => n + g.lines.length, 0);
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
  const kept = p.groups.map(() => [] as string[]);
  if (p.groups.some((g) => g.lines.length)) {
    left -= m(profileTitle) + 2;
    // Each category in proportion to its size in ROOT (ROOT gave the profile's room by rank),
    // every category's best line first: the next line taken is the one whose category has
    // shown the smallest part of itself so far.
    const next = p.groups.map(() => 0);
    const full = p.groups.map(() => false);
    for (;;) {
      let pick = -1;
      p.groups.forEach((g, k) => {
        if (full[k] || next[k]! >= g.lines.length) return;
        if (pick < 0 || next[k]! / g.lines.length < next[pick]! / p.groups[pick]!.lines.length) pick = k;
      });
      if (pick < 0) break;
      const g = p.groups[pick]!;
      const line = g.lines[next[pick]!]!;
      const c = m(line) + 1 + (kept[pick]!.length === 0 && g.heading ? m(g.heading) + 1 : 0);
      next[pick]!++;
      if (c > left) {
        full[pick] = true; // its next lines are not tried: a category keeps a prefix
        continue;
      }
      kept[pick]!.push(line);
      left -= c;
    }
  }
  const out: string[] = [];
  const shown = kept.reduce((n, k) => n + k.length, 0);
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
