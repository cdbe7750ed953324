// `hipo init`, run as the real executable: what it creates, keeps, carries over and refuses.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

describe('hipo init inside a memory folder', () => {
  it('refuses the memory folder of a workspace, and any folder in it, naming the workspace', () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': '# 2026-06-01\n- a line\n' });
    mkdirSync(join(ws.memoryDir, 'daily'));
    for (const [cwd, args, where] of [
      [ws.memoryDir, ['init', '.'], 'the memory folder'],
      [ws.root, ['init', '--dir', 'memory/daily'], 'inside the memory folder'],
      [ws.root, ['init', 'memory/new/deeper'], 'inside the memory folder'],
    ] as const) {
      const r = runCli([...args, '--timezone', 'UTC'], { cwd });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain(`is ${where} of the workspace ${ws.root}: nothing created`);
    }
    expect(ws.files()).toEqual(['hipo.config.json', 'memory/2026-06-01.md']);
    expect(readdirSync(ws.memoryDir).sort()).toEqual(['2026-06-01.md', 'daily']);
  });

  it('refuses the memory folder a config names, and allows a folder beside it', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', memoryDir: 'notes' });
    mkdirSync(join(ws.root, 'notes'));
    const refused = runCli(['init', join(ws.root, 'notes'), '--timezone', 'UTC']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`is the memory folder of the workspace ${ws.root}`);
    // `memory/` is not this workspace's tree: a project there may have a workspace of its own.
    expect(runCli(['init', join(ws.root, 'memory'), '--timezone', 'UTC']).code).toBe(0);
  });
});

describe('hipo init in a hipocampus workspace', () => {
  it('keeps its rootMaxTokens in the new config, and says it took it', () => {
    const ws = makeWorkspace({ 'hipocampus.config.json': JSON.stringify({ compaction: { rootMaxTokens: 1500 } }) }, null as never);
    const r = runCli(['init', ws.root, '--timezone', 'UTC']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('took     compaction.rootMaxTokens 1500 from hipocampus.config.json');
    expect(JSON.parse(ws.read('hipo.config.json'))).toEqual({ timeZone: 'UTC', compaction: { rootMaxTokens: 1500 } });
    // Without one, the default, and nothing said to be taken over.
    const fresh = makeWorkspace({}, null as never);
    const json = JSON.parse(runCli(['init', fresh.root, '--timezone', 'UTC', '--json']).stdout);
    expect(json.takenOver).toEqual([]);
    expect(JSON.parse(fresh.read('hipo.config.json')).compaction).toEqual({ rootMaxTokens: 3000 });
  });
});

describe('hipo init, what it says', () => {
  it('exits 2 on a config that does not load, naming it, and changes nothing', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', compaction: { rootMaxTokens: 'lots' } });
    const before = ws.hashes();
    const r = runCli(['init', ws.root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${ws.root}/hipo.config.json: "compaction.rootMaxTokens" must be a non-negative number`);
    expect(ws.hashes()).toEqual(before);
  });

  it('says a file stands where the folder should be, with exit 2', () => {
    const ws = makeWorkspace({ afile: 'x' }, null as never);
    for (const [dir, message] of [
      ['afile', `${ws.root}/afile is a file, not a folder: nothing created there`],
      ['afile/sub', `${ws.root}/afile/sub: cannot create the folder (a part of its path is a file)`],
    ]) {
      const r = runCli(['init', '--dir', dir!, '--timezone', 'UTC'], { cwd: ws.root });
      expect({ dir, code: r.code, stderr: r.stderr }).toEqual({ dir, code: 2, stderr: `hipo: ${message}\n` });
    }
    const taken = makeWorkspace({ notes: 'not a folder' }, { timeZone: 'UTC', memoryDir: 'notes' });
    const r = runCli(['init', taken.root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${taken.root}/notes is a file, not a folder`);
  });

  it('says that --timezone leaves a config already there as it is', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC' });
    const r = runCli(['init', ws.root, '--timezone', 'Asia/Seoul']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'note: --timezone Asia/Seoul not written: hipo.config.json is kept as it is, with the time zone UTC ' +
        '(edit "timeZone" there to change it)',
    );
    expect(JSON.parse(ws.read('hipo.config.json')).timeZone).toBe('UTC');
    expect(runCli(['init', ws.root, '--timezone', 'UTC']).stdout).not.toContain('note:');
  });

  it("names the config's memory folder in its hint", () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', memoryDir: 'notes' });
    expect(runCli(['init', ws.root]).stdout).toContain('next: write raw logs as notes/YYYY-MM-DD.md');
  });
});
