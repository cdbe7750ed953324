// The OpenClaw hook hipo writes into `hooks/hipo-memory/`: on agent:bootstrap it adds the
// memory context (`hipo context`) as one more bootstrap file, so OpenClaw's agent starts with
// ROOT and the recent summaries next to AGENTS.md, SOUL.md and MEMORY.md.

export const OPENCLAW_HOOK_MD = `---
name: hipo-memory
description: "Add hipo's memory context (ROOT topic index and recent summaries) to the agent's bootstrap files"
metadata: { "openclaw": { "emoji": "🧠", "events": ["agent:bootstrap"] } }
---

# hipo memory

Runs \`hipo context\` on agent bootstrap and adds its output as the bootstrap file
HIPO_MEMORY.md. Written by "hipo init --platform openclaw"; "hipo uninstall" removes it.
`;

/** The handler: the workspace is the event's, else the folder two levels above the handler itself. */
export function openClawHandler(argv: readonly string[]): string {
  return `// hipo memory hook for OpenClaw (agent:bootstrap). Written by "hipo init --platform openclaw".
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HIPO = ${JSON.stringify(argv)};
const HERE = fileURLToPath(new URL('../..', import.meta.url));

const handler = async (event) => {
  if (!event || event.type !== 'agent' || event.action !== 'bootstrap') return;
  const context = event.context;
  if (!context || !Array.isArray(context.bootstrapFiles)) return;
  const WORKSPACE = typeof context.workspaceDir === 'string' && context.workspaceDir ? context.workspaceDir : HERE;
  let text = '';
  try {
    text = execFileSync(HIPO[0], [...HIPO.slice(1), 'context', '--dir', WORKSPACE], { encoding: 'utf8', timeout: 15000 });
  } catch {
    return;
  }
  if (!text.trim()) return;
  context.bootstrapFiles.push({ name: 'HIPO_MEMORY.md', path: join(WORKSPACE, 'memory', 'ROOT.md'), content: text, missing: false });
};

export default handler;
`;
}
