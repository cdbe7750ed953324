// Sharing a token budget between sections (ROOT.md's Profile, Topics Index, Active Context...).
// Each section offers its lines best first and has a share of the budget. A section first gets
// its share; what a section does not use goes, in the order of `priority`, to sections that
// have lines left. So a long profile cannot starve the index, nor the index the profile, and
// a short one leaves its room to the others.
//
// Worked example: 1,000 tokens, shares profile 0.5 / topics 0.3 / active 0.2. The profile
// offers 900 tokens of lines, topics 200, active 150: first pass profile 500, topics 200 (100
// unused), active 150 (50 unused); the 150 left go to the profile (priority first): 650.

export interface BudgetSection {
  name: string;
  /** Lines best first; a section keeps a prefix of them. */
  costs: readonly number[];
  share: number;
}

/** How many lines (a prefix) each section keeps within `available`. */
export function allocate(sections: readonly BudgetSection[], available: number, priority: readonly string[]): Map<string, number> {
  const kept = new Map<string, number>();
  const spent = new Map<string, number>();
  let left = Math.max(0, available);
  const totalShare = sections.reduce((s, x) => s + x.share, 0) || 1;
  // First pass: each section up to its share.
  for (const s of sections) {
    const allowance = Math.floor((available * s.share) / totalShare);
    let n = 0;
    let used = 0;
    while (n < s.costs.length && used + s.costs[n]! <= allowance) used += s.costs[n++]!;
    kept.set(s.name, n);
    spent.set(s.name, used);
    left -= used;
  }
  // Second pass: what is left, to sections with lines left, by priority.
  const order = [...sections].sort((a, b) => rank(priority, a.name) - rank(priority, b.name));
  for (const s of order) {
    let n = kept.get(s.name)!;
    while (n < s.costs.length && s.costs[n]! <= left) left -= s.costs[n++]!;
    kept.set(s.name, n);
  }
  return kept;
}

function rank(priority: readonly string[], name: string): number {
  const i = priority.indexOf(name);
  return i < 0 ? priority.length : i;
}
