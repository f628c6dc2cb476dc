import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { type ExitCode, UsageError } from '../../shared/errors.js';
import type { IO } from '../io.js';
import type { SecretsMode } from '../../core/secrets/secrets-mode.js';

export interface McpCliOptions {
  root?: string;
  store?: string;
  /** `--secrets`: what every answer does with a secret (docs/agents.md#secrets). */
  secrets?: SecretsMode;
  version: string;
}

/** `refcat mcp [--root DIR]`: serve until the client hangs up (docs/reference.md#refcat-mcp). */
export async function runMcp(opts: McpCliOptions, io: IO): Promise<ExitCode> {
  const root = rootDir(path.resolve(io.ctx.cwd, opts.root ?? '.'));
  // The SDK is loaded here only, so no other command pays for it.
  const { serveMcp } = await import('../../core/agents/mcp-server.js');
  const stdout = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      io.stdout(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  await serveMcp({
    ctx: { ...io.ctx, cwd: root },
    store: opts.store,
    secrets: opts.secrets,
    version: opts.version,
    stdin: io.stdin as NodeJS.ReadableStream as never,
    stdout,
    log: (line) => io.stderr(line + '\n'),
  });
  return 0;
}

function rootDir(dir: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new UsageError(`--root: no such folder: ${dir}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`--root: not a folder: ${dir}`);
  return fs.realpathSync(dir);
}
