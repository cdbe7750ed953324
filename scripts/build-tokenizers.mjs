// Part of `npm run build`: writes gpt-tokenizer's BPE ranks as compact binary tables into
// dist/tokenizers/, which dist/text/tokens.js loads in about a millisecond instead of the
// library's 60-400 ms (see src/text/bpe.ts). Without them hipo falls back to the library.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildRankTable } from '../dist/text/bpe.js';

const require = createRequire(import.meta.url);
const out = new URL('../dist/tokenizers/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const name of ['cl100k_base', 'o200k_base']) {
  const mod = require(`gpt-tokenizer/cjs/bpeRanks/${name}`);
  const table = buildRankTable(mod.default ?? mod);
  writeFileSync(new URL(`${name}.bin`, out), table);
  console.log(`dist/tokenizers/${name}.bin: ${(table.length / 1e6).toFixed(1)} MB`);
}
