import { describe, expect, it } from 'vitest';
import { intendedRawName } from '../../src/tree/layout.js';

describe('intendedRawName: a raw log named almost right', () => {
  it('gives the name a day written in another shape, a copy or a wrong extension probably meant', () => {
    const meant = {
      '2026-11-2.md': '2026-11-02.md',
      '2026-1-5.md': '2026-01-05.md',
      '2026-11-20.MD': '2026-11-20.md',
      '2026-11-20.Md': '2026-11-20.md',
      '2026_11_22.md': '2026-11-22.md',
      '2026.11.22.md': '2026-11-22.md',
      '20261123.md': '2026-11-23.md',
      '2026-11-24 (conflicted copy).md': '2026-11-24.md',
      "2026-11-24 (Ann's conflicted copy 2026-11-25).md": '2026-11-24.md',
      '2026-11-24 (1).md': '2026-11-24.md',
      '2026-11-24 copy 2.md': '2026-11-24.md',
      '2026-11-24.sync-conflict-20261124-101010-ABCDEFG.md': '2026-11-24.md',
      '2026-11-19.md.md': '2026-11-19.md',
      '2026-11-20-standup.MD': '2026-11-20-standup.md',
    };
    for (const [name, want] of Object.entries(meant)) expect({ name, got: intendedRawName(name) }).toEqual({ name, got: want });
  });

  it('says nothing of notes, of names hipo reads already, or of dates that do not exist', () => {
    for (const name of [
      'meeting-notes-2026.md',
      'notes 2026-11-20.md',
      '2026-11-20 standup.md',
      '2026-11-20.md',
      '2026-11-20-standup.md',
      'ROOT.md',
      '12345678.md',
      '2026-11_20.md',
      '2026-13-45.md',
      '2026-2-30.md',
      '2026-11-20.txt',
      '2026-11-20.md~',
    ])
      expect({ name, got: intendedRawName(name) }).toEqual({ name, got: null });
  });
});
