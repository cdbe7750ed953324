// The plugins hipo writes for OpenCode and OpenClaw are JavaScript generated from template
// strings: an escape wrong in the template is a plugin the tool cannot load, which fails
// silently there (no memory loaded, nothing archived). Node checks their syntax here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openClawPlugin } from '../../src/platforms/openclaw-plugin.js';
import { openCodePlugin } from '../../src/platforms/opencode-plugin.js';

describe('generated plugins', () => {
  it.each([
    ['opencode', openCodePlugin],
    ['openclaw', openClawPlugin],
  ])('the %s plugin is a module node can parse', (name, make) => {
    const file = join(mkdtempSync(join(tmpdir(), 'hipo-plugin-')), `${name}.mjs`);
    writeFileSync(file, make(['/usr/local/bin/hipo', '--flag "quoted"']));
    const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
