// How hooks, plugins and skills call hipo: by a path that survives upgrades. A global install's
// bin link (`/usr/local/bin/hipo`) stays put when the package is upgraded; the npx cache does
// not (it is cleared and re-keyed), so an install from there is refused.
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export class InstallError extends Error {}

/** The compiled CLI of this package. */
const OWN_CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

export interface HipoCommand {
  /** The command as argv. */
  argv: string[];
  /** The same, quoted for a shell. */
  shell: string;
  /** How it was found. */
  how: string;
}

export function resolveHipoCommand(env: NodeJS.ProcessEnv = process.env): HipoCommand {
  if (env.HIPO_COMMAND?.trim()) {
    return { argv: [env.HIPO_COMMAND.trim()], shell: env.HIPO_COMMAND.trim(), how: 'HIPO_COMMAND' };
  }
  const own = real(OWN_CLI) ?? OWN_CLI;
  // A `hipo` on PATH that is this very package: its bin link survives upgrades.
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const bin = join(dir, 'hipo');
    if (existsSync(bin) && real(bin) === own) return { argv: [bin], shell: shellQuote(bin), how: `hipo on PATH (${bin})` };
  }
  if (/[/\\]_npx[/\\]/.test(own)) {
    throw new InstallError(
      `hipo is running from the npx cache (${own}), which is cleared and re-keyed; hooks pointing there break. Install it first (npm install -g hipo) or set HIPO_COMMAND to a stable command.`,
    );
  }
  const argv = [process.execPath, own];
  return { argv, shell: argv.map(shellQuote).join(' '), how: 'node and the installed package' };
}
