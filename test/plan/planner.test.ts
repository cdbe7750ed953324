// The planner is a pure function of (snapshot, today, options): these tests hand it snapshots
// built in memory, no files involved.
import { describe, expect, it } from 'vitest';
import type { IsoWeek, LocalDate } from '../../src/time/calendar.js';
import { nodeKey, nodeRelPath, type NodeStatus, type Period } from '../../src/tree/layout.js';
import type { NodeInfo, RawLogInfo, TreeSnapshot } from '../../src/tree/snapshot.js';
import { childrenHash, planCycle, Planner, rootSourceHash } from '../../src/plan/planner.js';

const opts = { limits: { daily: 1, weekly: 1, monthly: 1, root: 1 }, graceDays: 7, rootSettings: '' };
const stamp = { size: 1, mtimeMs: 1 };
const raw = (date: string, hash = `h-${date}`): RawLogInfo => ({
  date: date as LocalDate,
  relPath: `${date}.md`,
  stamp,
  hash,
  lines: 10,
  usable: true,
  note: null,
});
const daily = (date: string, status: NodeStatus | null, sourceHash: string | null, extra: Partial<NodeInfo> = {}): NodeInfo => ({
  period: { level: 'daily', date: date as LocalDate },
  relPath: `daily/${date}.md`,
  stamp,
  status,
  sourceHash,
  recordedBodyHash: `b-${date}`,
  bodyHash: `b-${date}`,
  bodyLines: 10,
  summarizer: 'copy',
  topics: [],
  problem: null,
  ...extra,
});
const snap = (raws: RawLogInfo[], nodes: NodeInfo[]): TreeSnapshot => ({
  raws: new Map(raws.map((r) => [r.date, r])),
  nodes: new Map(nodes.map((n) => [nodeKey(n.period), n])),
  problems: [],
});
const deepFreeze = <T>(o: T): T => {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    if (o instanceof Map) for (const v of o.values()) deepFreeze(v);
    else for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};

describe('planCycle', () => {
  it('is pure: same input, same plan; the snapshot is not touched', () => {
    const s = deepFreeze(snap([raw('2026-06-01'), raw('2026-06-02')], []));
    const a = planCycle(s, '2026-06-02' as LocalDate, opts);
    const b = planCycle(s, '2026-06-02' as LocalDate, opts);
    expect(a).toEqual(b);
    expect(a.actions.map((x) => `${x.kind} ${x.relPath} ${x.status}`)).toEqual(['create daily/2026-06-02.md tentative']);
  });

  it('fixes yesterday by status only when its raw log is unchanged', () => {
    const s = snap([raw('2026-06-01')], [daily('2026-06-01', 'tentative', 'h-2026-06-01')]);
    const p = planCycle(s, '2026-06-02' as LocalDate, opts);
    expect(p.actions[0]).toMatchObject({ kind: 'fix', relPath: 'daily/2026-06-01.md', status: 'fixed', reason: 'date has passed' });
  });

  it('regenerates a tentative node whose raw log changed, and one without a valid status', () => {
    const changed = planCycle(snap([raw('2026-06-02', 'new')], [daily('2026-06-02', 'tentative', 'old')]), '2026-06-02' as LocalDate, opts);
    expect(changed.actions[0]).toMatchObject({ kind: 'regenerate', reason: 'raw log changed' });
    const placeholder = planCycle(snap([raw('2026-06-02')], [daily('2026-06-02', null, null)]), '2026-06-02' as LocalDate, opts);
    expect(placeholder.actions[0]).toMatchObject({ kind: 'regenerate', reason: expect.stringMatching(/no tentative\/fixed status/) });
  });

  it('amends a fixed node for a late entry, but only flags it when it was edited by hand', () => {
    const late = planCycle(snap([raw('2026-06-01', 'new')], [daily('2026-06-01', 'fixed', 'old')]), '2026-06-20' as LocalDate, opts);
    expect(late.actions[0]).toMatchObject({ kind: 'amend', status: 'fixed' });
    const edited = planCycle(
      snap([raw('2026-06-01', 'new')], [daily('2026-06-01', 'fixed', 'old', { bodyHash: 'edited' })]),
      '2026-06-20' as LocalDate,
      opts,
    );
    expect(edited.actions.filter((a) => a.period.level === 'daily')).toEqual([]);
    expect(edited.attention[0]).toMatchObject({
      relPath: 'daily/2026-06-01.md',
      message: expect.stringMatching(/edited by hand; not rewritten/),
    });
  });

  it('keeps a daily node whose raw log is gone, and says so; a node no raw log made stays unflagged', () => {
    // 2026-06-01's raw log was deleted (or renamed to another date) after its node was fixed.
    const gone = planCycle(snap([], [daily('2026-06-01', 'fixed', 'h-2026-06-01')]), '2026-06-20' as LocalDate, opts);
    expect(gone.actions.filter((a) => a.period.level === 'daily')).toEqual([]);
    expect(gone.attention).toEqual([
      {
        relPath: 'daily/2026-06-01.md',
        message: expect.stringMatching(
          /^the raw log of its day \(2026-06-01\.md\) is gone; the node is kept .* delete it too if the day should be forgotten$/,
        ),
      },
    ]);
    // Still tentative when it went: fixed on time first, flagged from then on.
    const open = planCycle(snap([], [daily('2026-06-01', 'tentative', 'h-2026-06-01')]), '2026-06-20' as LocalDate, opts);
    expect(open.actions.filter((a) => a.period.level === 'daily').map((a) => `${a.kind} ${a.relPath}`)).toEqual([
      'fix daily/2026-06-01.md',
    ]);
    expect(open.attention).toEqual([]);
    // Written by a person or another tool (no source hash): nothing to say.
    const handMade = planCycle(snap([], [daily('2026-06-01', 'fixed', null)]), '2026-06-20' as LocalDate, opts);
    expect(handMade.attention).toEqual([]);
  });

  it('compacts a raw log dated after tomorrow, and says the date may be wrong', () => {
    // 2027-06-20 for 2026-06-20: a typo that would make the log ROOT's newest day for a year.
    const s = snap([raw('2026-06-19'), raw('2026-06-21'), raw('2026-06-22'), raw('2027-06-20')], []);
    const p = planCycle(s, '2026-06-20' as LocalDate, { ...opts, limits: { daily: 9, weekly: 9, monthly: 9, root: 1 } });
    expect(p.actions.filter((a) => a.period.level === 'daily').map((a) => a.relPath)).toContain('daily/2027-06-20.md');
    // Tomorrow is a writer in a time zone ahead of the configured one, not a mistake.
    expect(p.attention).toEqual([
      { relPath: '2026-06-22.md', message: expect.stringMatching(/^dated after today \(2026-06-20\): .*rename the file$/) },
      { relPath: '2027-06-20.md', message: expect.stringMatching(/^dated after today \(2026-06-20\)/) },
    ]);
    // Once its day comes, nothing to say.
    expect(planCycle(s, '2027-06-19' as LocalDate, opts).attention).toEqual([]);
  });

  it('says the clock went back, not that the files are misnamed, when days ahead of today were fixed already', () => {
    // Compacted up to 2026-06-25 (its day still tentative), then run with --now 2026-06-20 (or
    // the clock set back). 2026-06-26 was never seen: it may be a typo.
    const fixedDays = ['2026-06-22', '2026-06-23', '2026-06-24'];
    const s = snap(
      [raw('2026-06-19'), ...fixedDays.map((d) => raw(d)), raw('2026-06-25'), raw('2026-06-26'), raw('2027-06-20')],
      [...fixedDays.map((d) => daily(d, 'fixed', `h-${d}`)), daily('2026-06-25', 'tentative', 'h-2026-06-25')],
    );
    const p = planCycle(s, '2026-06-20' as LocalDate, { ...opts, limits: { daily: 9, weekly: 9, monthly: 9, root: 1 } });
    expect(p.attention).toEqual([
      { relPath: '2026-06-26.md', message: expect.stringMatching(/^dated after today \(2026-06-20\): .*rename the file$/) },
      { relPath: '2027-06-20.md', message: expect.stringMatching(/rename the file$/) },
      {
        relPath: '2026-06-22.md',
        message: expect.stringMatching(
          /^dated after today \(2026-06-20\), as are 3 more raw log\(s\) up to 2026-06-25, days an earlier cycle has already seen: /,
        ),
      },
    ]);
    expect(p.attention[2]!.message).toMatch(/today went back .*; the file names are right/);
    // A fixed week says more: 2026-W25 (June 15-21) is fixed from June 29, so a cycle ran then.
    const week: NodeInfo = { ...daily('2026-06-15', 'fixed', 'w'), period: { level: 'weekly', week: '2026-W25' as IsoWeek } };
    const withWeek = planCycle({ ...s, nodes: new Map([...s.nodes, [nodeKey(week.period), week]]) }, '2026-06-20' as LocalDate, opts);
    expect(withWeek.attention.map((a) => a.relPath)).toEqual(['2027-06-20.md', '2026-06-22.md']);
    expect(withWeek.attention[1]!.message).toMatch(/as are 4 more raw log\(s\) up to 2026-06-26, days an earlier cycle has already seen/);
  });

  it('keeps a fixed node it cannot verify (written by another tool) as it is', () => {
    const p = planCycle(
      snap([raw('2026-06-01')], [daily('2026-06-01', 'fixed', null, { recordedBodyHash: null })]),
      '2026-06-20' as LocalDate,
      opts,
    );
    expect(p.actions.filter((a) => a.period.level === 'daily')).toEqual([]);
  });

  it('does not fix a week while one of its days waits (pitfall 4)', () => {
    const week: Period = { level: 'weekly', week: '2026-W23' as never };
    const days = ['2026-06-01', '2026-06-02'];
    const nodes = [daily('2026-06-01', 'fixed', 'h-2026-06-01')];
    const weekly: NodeInfo = {
      ...daily('x', 'tentative', null),
      period: week,
      relPath: nodeRelPath(week),
      sourceHash: childrenHash([{ level: 'daily', date: '2026-06-01' as LocalDate }], new Map(nodes.map((n) => [nodeKey(n.period), n]))),
    };
    // 2026-06-02 has a raw log but no daily node yet, and the limit lets no other daily through.
    const s = snap([...days.map((d) => raw(d)), raw('2026-06-25')], [...nodes, weekly]);
    const p = planCycle(s, '2026-06-30' as LocalDate, opts);
    expect(p.actions.map((a) => a.relPath)).not.toContain('weekly/2026-W23.md');
    expect(p.deferred.find((d) => d.relPath === 'weekly/2026-W23.md')?.reason).toMatch(/waiting for 2026-06-02/);
  });
  it('recognises a settled week by its records, and sees a changed child as a change', () => {
    const week: Period = { level: 'weekly', week: '2026-W23' as never };
    const d1 = daily('2026-06-01', 'fixed', 'h-2026-06-01');
    const d2 = daily('2026-06-02', 'fixed', 'h-2026-06-02');
    const sourceHash = childrenHash([d1.period, d2.period], new Map([d1, d2].map((n) => [nodeKey(n.period), n])));
    const weekly: NodeInfo = { ...daily('x', 'fixed', sourceHash), period: week, relPath: nodeRelPath(week) };
    const raws = [raw('2026-06-01'), raw('2026-06-02')];
    const settled = snap(raws, [d1, d2, weekly]);
    for (let i = 0; i < 2; i++) {
      const p = planCycle(settled, '2026-06-30' as LocalDate, opts);
      expect(p.actions.map((a) => a.relPath)).not.toContain('weekly/2026-W23.md');
      expect(p.upToDate.weekly).toBe(1);
    }
    // A day's node edited by hand (same week record): the week is amended, not taken as settled.
    const edited = snap(raws, [d1, { ...d2, bodyHash: 'b-edited' }, weekly]);
    const p = planCycle(edited, '2026-06-30' as LocalDate, opts);
    expect(p.actions.find((a) => a.relPath === 'weekly/2026-W23.md')).toMatchObject({ kind: 'amend' });
    // A late raw log for a day of that week: the day comes first, the week waits for it.
    const late = planCycle(snap([...raws, raw('2026-06-03')], [d1, d2, weekly]), '2026-06-30' as LocalDate, opts);
    expect(late.actions.map((a) => a.relPath)).toContain('daily/2026-06-03.md');
    expect(
      late.actions.find((a) => a.relPath === 'weekly/2026-W23.md')?.kind ??
        late.deferred.find((d) => d.relPath === 'weekly/2026-W23.md')?.kind,
    ).toBe('amend');
  });
});

/** A node above the days, made from `children` as `nodes` hold them (so current, unless changed after). */
const parent = (p: Period, status: NodeStatus, children: Period[], nodes: NodeInfo[], extra: Partial<NodeInfo> = {}): NodeInfo => ({
  ...daily('x', status, childrenHash(children, new Map(nodes.map((n) => [nodeKey(n.period), n])))),
  period: p,
  relPath: nodeRelPath(p),
  ...extra,
});
const W21: Period = { level: 'weekly', week: '2026-W21' as never };
const W23: Period = { level: 'weekly', week: '2026-W23' as never };
const MAY: Period = { level: 'monthly', month: '2026-05' as never };
const JUNE: Period = { level: 'monthly', month: '2026-06' as never };
const ROOT: Period = { level: 'root' };
const today = '2026-06-20' as LocalDate;

/**
 * A settled tree on 2026-06-20: 2026-05-20 (in 2026-W21, inside May) with its week and month, all
 * fixed, and ROOT made from May with `settings`.
 */
function settledMay(settings: string, extra: NodeInfo[] = []): TreeSnapshot {
  const day = daily('2026-05-20', 'fixed', 'h-2026-05-20');
  const week = parent(W21, 'fixed', [day.period], [day]);
  const month = parent(MAY, 'fixed', [W21], [week]);
  const nodes = [day, week, month, ...extra];
  const root: NodeInfo = {
    ...daily('x', 'tentative', rootSourceHash(today, [MAY], new Map(nodes.map((n) => [nodeKey(n.period), n])), settings)),
    period: ROOT,
    relPath: 'ROOT.md',
  };
  return snap([raw('2026-05-20')], [...nodes, root]);
}
const lines = (p: ReturnType<typeof planCycle>) => p.actions.map((a) => `${a.kind} ${a.relPath} → ${a.status}`);

describe('a period whose days are all gone', () => {
  // 2026-06-02, the only day of 2026-W23 and of June, was forgotten: its raw log and daily node
  // deleted. Its week and month (hipo's, not edited) are what is left of it.
  const june = (week: Partial<NodeInfo> = {}, month: Partial<NodeInfo> = {}): NodeInfo[] => {
    const gone = daily('2026-06-02', 'fixed', 'h-2026-06-02');
    const w = parent(W23, 'fixed', [gone.period], [gone], week);
    return [w, parent(JUNE, 'tentative', [W23], [w], month)];
  };

  it('removes the week and month hipo made of it, and rebuilds ROOT without them', () => {
    expect(planCycle(settledMay(''), today, opts).actions).toEqual([]);
    const p = planCycle(settledMay('', june()), today, opts);
    expect(lines(p)).toEqual([
      'remove weekly/2026-W23.md → removed',
      'remove monthly/2026-06.md → removed',
      'regenerate ROOT.md → tentative',
    ]);
    expect(p.actions[0]!.reason).toBe('every day of its period is gone (raw logs and daily nodes deleted)');
    expect(p.attention).toEqual([]);
  });

  it('keeps a fixed one edited by hand (and says so) and one hipo did not write; a tentative edit goes, copied by the executor', () => {
    const edited = planCycle(settledMay('', june({ bodyHash: 'edited' }, { sourceHash: null })), today, opts);
    // (ROOT, built from May alone here, is rebuilt with the June that stays.)
    expect(edited.actions.filter((a) => a.kind === 'remove')).toEqual([]);
    expect(edited.attention).toEqual([
      {
        relPath: 'weekly/2026-W23.md',
        message: 'every day of its period is gone, but this fixed node was edited by hand; not removed (delete it to forget the period)',
      },
    ]);
    const tentative = planCycle(settledMay('', june({ status: 'tentative', bodyHash: 'edited' }, { recordedBodyHash: null })), today, opts);
    expect(tentative.actions.filter((a) => a.kind === 'remove').map((a) => a.relPath)).toEqual(['weekly/2026-W23.md']);
  });

  it('rebuilds ROOT with no month once every month is gone, but leaves a ROOT hipo did not write', () => {
    const nodes = june();
    const root = (sourceHash: string | null): NodeInfo => ({ ...daily('x', 'tentative', sourceHash), period: ROOT, relPath: 'ROOT.md' });
    const p = planCycle(snap([], [...nodes, root('old')]), today, opts);
    expect(lines(p)).toEqual([
      'remove weekly/2026-W23.md → removed',
      'remove monthly/2026-06.md → removed',
      'regenerate ROOT.md → tentative',
    ]);
    // Once they are gone: ROOT is rebuilt from no month, and then current.
    expect(lines(planCycle(snap([], [root('old')]), today, opts))).toEqual(['regenerate ROOT.md → tentative']);
    const empty = rootSourceHash(today, [], new Map(), '');
    expect(planCycle(snap([], [root(empty)]), today, opts).upToDate.root).toBe(1);
    expect(lines(planCycle(snap([], [root(null)]), today, opts))).toEqual([]);
  });
});

describe("ROOT's settings", () => {
  it('rebuild ROOT the day they change, also for a planner kept across cycles', () => {
    const tree = settledMay('cap 3000');
    const before = { ...opts, rootSettings: 'cap 3000' };
    const after = { ...opts, rootSettings: 'cap 400' };
    expect(planCycle(tree, today, before).actions).toEqual([]);
    const p = planCycle(tree, today, after);
    expect(lines(p)).toEqual(['regenerate ROOT.md → tentative']);
    expect(p.actions[0]!.reason).toMatch(/ROOT settings changed/);
    const planner = new Planner();
    expect(planner.plan(tree, today, before).actions).toEqual([]);
    expect(lines(planner.plan(tree, today, after, { raws: [], nodes: [] }))).toEqual(['regenerate ROOT.md → tentative']);
  });
});

describe('attention', () => {
  it('marks a node hipo cannot rewrite (broken frontmatter) as blocked, not one kept by choice', () => {
    const broken = planCycle(
      snap([raw('2026-06-01', 'new')], [daily('2026-06-01', null, null, { problem: 'malformed frontmatter' })]),
      today,
      opts,
    );
    expect(broken.attention).toEqual([{ relPath: 'daily/2026-06-01.md', message: expect.stringMatching(/^not rewritten/), blocked: true }]);
    const edited = planCycle(snap([raw('2026-06-01', 'new')], [daily('2026-06-01', 'fixed', 'old', { bodyHash: 'edited' })]), today, opts);
    expect(edited.attention).toEqual([{ relPath: 'daily/2026-06-01.md', message: expect.stringMatching(/edited by hand/) }]);
  });
});
