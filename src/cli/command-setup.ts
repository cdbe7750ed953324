// What every command needs: the workspace, its configuration, and a place to print.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type HipoConfig } from '../config/config.js';
import { findWorkspaceRoot, workspaceHolding } from '../config/workspace-root.js';
import { workspaceAt, type Workspace } from '../tree/layout.js';
import { CliError } from './exit.js';
import { redactOutput } from '../redact/lines.js';
import { recordedRedactor } from '../redact/workspace.js';
import type { Io } from './io.js';

/**
 * Everything a command prints passes the redactor of the workspace it loaded (a JSON document
 * value by value, so it stays valid): the one way out of the command line.
 */
export function redactingIo(io: Io): Io {
  return {
    out: (t) => io.out(redactOutput(recordedRedactor(), t)),
    err: (t) => io.err(redactOutput(recordedRedactor(), t)),
  };
}

/** A command's action returns its exit code. */
export type Run = () => Promise<number>;

/** What a command module gets when it registers itself. */
export interface CommandSetup {
  io: Io;
  setRun: (run: Run) => void;
}

export interface Loaded {
  ws: Workspace;
  config: HipoConfig;
  configWarnings: string[];
}

/** Every command's `--dir`: without it, the workspace is found upward from the current folder. */
export const DIR_FLAGS = '--dir <path>';
export const DIR_HELP = 'the workspace (holding memory/ and hipo.config.json); default: the nearest one at or above the current folder';

/** The workspace folder: `--dir` as given, else the nearest one up from the current folder (else the current folder). */
export function workspaceRoot(dir: string | undefined): { root: string; found: boolean } {
  if (dir !== undefined) return { root: resolve(dir), found: true };
  const up = findWorkspaceRoot(process.cwd());
  return up ? { root: up, found: true } : { root: process.cwd(), found: false };
}

/** Loads the workspace at `--dir` (or found upward). With `requireMemory`, a missing memory folder is an error. */
export function loadWorkspace(dir: string | undefined, requireMemory: boolean): Loaded {
  const { root, found } = workspaceRoot(dir);
  if (!found && requireMemory)
    throw new CliError(`no hipo workspace in ${root} or any folder above it (run "hipo init" to create one, or use --dir)`);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CliError(`--dir: ${root} is not a folder`);
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig(root);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
  const ws = workspaceAt(root, loaded.config.memoryDir);
  if (requireMemory && !existsSync(ws.memoryDir)) {
    // `--dir ws/memory`: the folder given is a tree, and its workspace the one meant.
    const holder = workspaceHolding(root);
    const hint = holder ? `${holder.says}: use --dir ${holder.root}` : 'use --dir to point at a workspace, or "hipo init" to create one';
    throw new CliError(`${ws.memoryDir}: no memory folder here (${hint})`);
  }
  return { ws, config: loaded.config, configWarnings: loaded.warnings };
}
