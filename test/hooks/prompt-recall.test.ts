// `hipo hook UserPromptSubmit`: after archiving, the agent gets what memory holds about the prompt.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS } from '../../src/search/query.js';
import { SHEDDING_DAYS, SUMMARIZE_SHORT_DAYS } from '../helpers/conversation.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { makeWorkspace, runCli, type TestWorkspace } from '../helpers/workspace.js';

const SESSION = '7c1e0b2a-1111-4222-8333-944455566677';
// The hook recalls only when capture left it time within agents.hookBudgetMs (1.5 s); on a loaded
// machine a child process's start-up alone can take that. A wide budget keeps these tests about
// what is recalled (the budget has its own tests).
const CONFIG = { timeZone: 'UTC', agents: { hookBudgetMs: 30_000 } };

function prompt(ws: TestWorkspace, text: string, transcript: string | null = null) {
  const r = runCli(['hook', 'UserPromptSubmit', '--dir', ws.root, '--now', '2026-03-20'], {
    input: hookJson('UserPromptSubmit', { session_id: SESSION, cwd: ws.root, transcript_path: transcript, prompt: text }),
  });
  expect(r.code).toBe(0);
  return r.stdout ? (JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }) : null;
}

function memory(): TestWorkspace {
  return makeWorkspace(
    {
      'memory/2026-03-02.md':
        '# 2026-03-02\n\n## Chat [user]\n- My golden retriever Max sheds long hair all over the sofa every spring\n' +
        '- the groomer account password is hunter2-Xk93-Lq0Z, token sk-proj-abc123def456ghi789jkl012mno345\n',
      'memory/2026-03-05.md': '# 2026-03-05\n\n## Kitchen [project]\n- repainted the kitchen cabinets in sage green\n',
    },
    CONFIG,
  );
}

describe('hipo hook UserPromptSubmit: memory about the prompt', () => {
  it('hands the agent the lines that share words with the prompt, with their file and line', () => {
    const ws = memory();
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    const out = prompt(ws, 'Which vacuum cleaner copes with long dog hair shedding on a sofa?');
    expect(out?.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    const text = out!.hookSpecificOutput.additionalContext;
    expect(text).toMatch(/^## From memory, about this prompt \(hipo\)\n/);
    expect(text).toContain('My golden retriever Max sheds long hair');
    expect(text).toMatch(/- (daily\/)?2026-03-02\.md:\d+/);
    // ROOT.md is the SessionStart context's; a secret never leaves (the index holds it redacted).
    expect(text).not.toContain('ROOT.md');
    expect(text).not.toContain('sk-proj-abc123');
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).not.toContain('sage green');
    // Quotes and dashes in a prompt are not search syntax (a phrase, an excluded word) here.
    const quoted = prompt(ws, '"Which vacuum cleaner copes with long dog hair -shedding on a sofa?"');
    expect(quoted?.hookSpecificOutput.additionalContext).toContain('My golden retriever Max sheds long hair');
  });

  it("leads with the user's facts that share words with the prompt, from the monthly nodes", () => {
    const ask = (config: object): string => {
      const ws = makeWorkspace(SHEDDING_DAYS, { ...CONFIG, compaction: SUMMARIZE_SHORT_DAYS, ...config });
      expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
      expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
      return prompt(ws, 'Which vacuum copes best with long hair shedding on a sofa and the reviews?')!.hookSpecificOutput.additionalContext;
    };
    const text = ask({});
    const lines = text.split('\n');
    expect(lines[1]).toMatch(/^Facts the user told me that share words with the prompt \(monthly nodes\), then earlier notes/);
    expect(lines[2]).toMatch(/^- monthly\/2026-03\.md:\d+ · .*My golden retriever Max sheds long hair all over the sofa/);
    expect(text).not.toMatch(/^- monthly.*lighter shade of gray/m);
    // The hits follow, within the same room.
    expect(text).toMatch(/^- (daily\/)?2026-03-0\d\.md:\d+/m);
    expect(text.length).toBeLessThanOrEqual(2000);
    // Turned off, the section is the hits alone.
    const off = ask({ agents: { ...CONFIG.agents, promptRecallFacts: 0 } });
    expect(off).not.toContain('monthly/');
    expect(off.split('\n')[1]).toMatch(/^Earlier notes that share words with the prompt/);
  });

  it('adds what the user said of themselves in a conversation the prompt found by other words', () => {
    const advice = Array.from(
      { length: 6 },
      (_, i) => `${i + 1}. Vacuum the carpet slowly and empty the storage boxes before you start, step ${i + 1}.`,
    );
    const ws = makeWorkspace(
      {
        'memory/2026-03-02.md': [
          '# 2026-03-02',
          '',
          '## Session 3',
          "User: I've heard of Teva and Merrell, they're great brands. By the way, I've been keeping my old sneakers under my bed " +
            "for storage, and they're starting to smell.",
          "Assistant: I'd recommend baking soda for the sneakers. I have seen it work wonders on old shoes.",
          "User: Thanks! I just set the storage room's wifi password to hunter2-Xk93-Lq0Z, after my old router died.",
          'Assistant: Sure. Here is a cleaning plan for the bedroom:',
          ...advice,
          '',
        ].join('\n'),
      },
      CONFIG,
    );
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    const text = prompt(ws, 'I want to vacuum the carpet and clear the storage boxes today, any tips?')!.hookSpecificOutput
      .additionalContext;
    // The matched lines are the assistant's advice; the user's own statement comes with them.
    expect(text).toContain('Vacuum the carpet');
    expect(text).toMatch(/the user, line 4: .*keeping my old sneakers under my bed for storage/);
    // Never the assistant's first person, never a secret (the index's redacted text).
    expect(text).not.toMatch(/the user, line \d+: I'd recommend|I have seen it work/);
    expect(text).toMatch(/the user, line 6: I just set the storage room's wifi password to \S*REDACTED/);
    expect(text).not.toContain('hunter2-Xk93');
    expect(text.length).toBeLessThanOrEqual(2000);
  });

  it("leaves out this session's own turns: the agent has them already", () => {
    const ws = memory();
    const t = new TranscriptWriter(SESSION, '2026-03-20T09:00:00.000Z')
      .user('Our retriever Max keeps shedding long hair, any grooming brush advice?')
      .assistant('A deshedding rake works well for long hair.')
      .writeTo(join(ws.root, 'session.jsonl'));
    expect(
      runCli(['hook', 'Stop', '--dir', ws.root, '--now', '2026-03-20'], {
        input: hookJson('Stop', { session_id: SESSION, cwd: ws.root, transcript_path: t }),
      }).code,
    ).toBe(0);
    expect(ws.read('memory/2026-03-20.md')).toContain('deshedding rake');
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    const text = prompt(ws, 'Which vacuum copes with long dog hair shedding from my retriever?', t)!.hookSpecificOutput.additionalContext;
    expect(text).toContain('My golden retriever Max sheds long hair');
    expect(text).not.toContain('deshedding rake');
  });

  it('leaves out the kept copies of hand-edited nodes: an old ROOT.md is not memory about the prompt', () => {
    const ws = memory();
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    ws.write('memory/ROOT.md', `${ws.read('memory/ROOT.md')}\n- integration tests run against a real Postgres container, no mocks\n`);
    ws.write('memory/2026-03-05.md', `${ws.read('memory/2026-03-05.md')}- bought sage green paint for the hallway\n`);
    expect(runCli(['compact', '--dir', ws.root, '--now', '2026-03-20']).code).toBe(0);
    expect(existsSync(join(ws.root, 'memory', 'edits'))).toBe(true);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    const found = runCli(['search', 'integration tests real Postgres container', '--dir', ws.root, '--mode', 'bm25']);
    expect(found.stdout).toContain('edits/ROOT.edited-');
    const out = prompt(ws, 'write the integration tests against a real Postgres container, no mocks');
    expect(out?.hookSpecificOutput.additionalContext ?? '').not.toContain('edits/');
  });
  it('reads a prompt in Chinese, Japanese or Korean by its characters, not its spaces', () => {
    const ws = makeWorkspace(
      {
        'memory/2026-03-02.md':
          '# 2026-03-02\n\n## 家庭 [user]\n- 我的女儿小美每周六上小提琴课\n\n## 회의 [project]\n- 다음 주 월요일에 데이터베이스 마이그레이션 회의\n',
      },
      CONFIG,
    );
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    expect(prompt(ws, '小美的小提琴课是哪天？')?.hookSpecificOutput.additionalContext).toContain('我的女儿小美每周六上小提琴课');
    expect(prompt(ws, '마이그레이션 회의는 언제야?')?.hookSpecificOutput.additionalContext).toContain('데이터베이스 마이그레이션 회의');
  });

  it('answers a question that comes with a long pasted Korean document, from its first 4,000 characters', () => {
    const ws = makeWorkspace(
      { 'memory/2026-03-02.md': '# 2026-03-02\n\n## 회의 [project]\n- 다음 주 월요일에 데이터베이스 마이그레이션 회의\n' },
      CONFIG,
    );
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    // About 600 KB of hook input, within the 1 MB it takes: every Korean word is a run of its own,
    // and work per run over the whole prompt took 28 s, past the platform's timeout for the prompt
    // (npm run bench:hooks measures it). The search reads the first 4,000 characters; the hook too.
    const words = ['배포', '서버', '검색', '지연', '시간', '대시보드', '경고', '사용자', '설정', '확인', '문제', '해결'];
    const pasted = Array.from({ length: 40_000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
    const question = `마이그레이션 회의는 언제야? 로그는 아래에:\n${pasted}`;
    const out = prompt(ws, question)?.hookSpecificOutput.additionalContext;
    expect(out).toContain('데이터베이스 마이그레이션 회의');
    expect(out).toBe(prompt(ws, question.slice(0, MAX_QUERY_CHARS))?.hookSpecificOutput.additionalContext);
  }, 120_000);

  it('counts the short names a coding prompt uses (PR, CI, DB) among its words', () => {
    const ws = makeWorkspace(
      {
        'memory/2026-03-04.md':
          '# 2026-03-04\n\n## pull requests [feedback]\n- rule: keep pull requests under 400 changed lines\n' +
          '- how to apply: split by layer (schema, writer, endpoint) and stack the PRs\n',
      },
      CONFIG,
    );
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    const text = prompt(ws, 'how should I split this big PR')!.hookSpecificOutput.additionalContext;
    expect(text).toContain('stack the PRs');
    // Notes, not a conversation: no statement of the user's, and the heading does not promise one.
    expect(text).not.toMatch(/the user, line|what the user said/);
    // Still two words ("fix", "ci"): too few to search.
    expect(prompt(ws, 'yes please fix the CI')).toBeNull();
  });

  it('says nothing for a slash command, a prompt of a word or two, with no index, or when turned off', () => {
    const ws = memory();
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    // No index yet: the hook does not build one, and `hipo status` says what it is missing.
    expect(prompt(ws, 'Which vacuum copes with long dog hair shedding?')).toBeNull();
    expect(existsSync(join(ws.root, '.hipo', 'index.db'))).toBe(false);
    expect(runCli(['status', '--dir', ws.root]).stdout).toContain('the prompt hook needs it to hand the agent memory about a prompt');
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    expect(prompt(ws, '/compact keep the dog hair notes')).toBeNull();
    expect(prompt(ws, 'yes, shedding')).toBeNull();
    // One shared word ("kitchen") is chance: no line of the hit holds two of the prompt's words.
    expect(prompt(ws, 'Which robot vacuum handles a tiled kitchen floor?')).toBeNull();
    expect(prompt(ws, 'Which vacuum copes with long dog hair shedding?')).not.toBeNull();
    // An index another hipo version wrote is left for the daemon or `hipo index` to rebuild.
    const db = new Database(join(ws.root, '.hipo', 'index.db'));
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'chunker_version'").run();
    db.close();
    const before = statSync(join(ws.root, '.hipo', 'index.db')).size;
    expect(prompt(ws, 'Which vacuum copes with long dog hair shedding?')).toBeNull();
    expect(statSync(join(ws.root, '.hipo', 'index.db')).size).toBe(before);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    expect(prompt(ws, 'Which vacuum copes with long dog hair shedding?')).not.toBeNull();
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ agents: { promptRecallHits: 0 } }));
    expect(prompt(ws, 'Which vacuum copes with long dog hair shedding?')).toBeNull();
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ agents: { promptRecallHits: 2.5 } }));
    expect(runCli(['status', '--dir', ws.root]).stderr).toContain('"agents.promptRecallHits" must be a whole number from 0 to 20');
  });
});
