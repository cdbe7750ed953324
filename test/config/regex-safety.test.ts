import { describe, expect, it } from 'vitest';
import { backtrackingRisk } from '../../src/config/regex-safety.js';

describe('backtrackingRisk', () => {
  // Engines newer than Node 20 accept modifier groups; this one only reads the pattern's text.
  it('compares characters as a modifier group reads them: case ignored, a dot matching newlines', () => {
    expect(backtrackingRisk('(?:a|A)+b')).toBeNull();
    expect(backtrackingRisk('(?i:(?:a|A)+b)')).toMatch(/alternatives can start with the same character/);
    expect(backtrackingRisk('(?:.|\\n)+b')).toBeNull();
    expect(backtrackingRisk('(?s:(?:.|\\n)+b)')).toMatch(/alternatives can start with the same character/);
    // Turning a flag off leaves the pattern as plain as it was.
    expect(backtrackingRisk('(?-i:(?:a|A)+b)')).toBeNull();
  });
});
