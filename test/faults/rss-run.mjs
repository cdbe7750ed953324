// Runs the compiled hipo inside this process and, at exit, writes its peak resident set size
// (kilobytes, from process.resourceUsage) to the file named first: how resources.test.ts
// measures a command's memory without depending on /usr/bin/time.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [out, ...args] = process.argv.slice(2);
const cli = resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');
process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
process.argv = [process.argv[0], cli, ...args];
await import(cli);
