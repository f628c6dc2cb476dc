import { once } from 'node:events';
import os from 'node:os';
import type { IO } from './io.js';
import { runCli } from './run.js';

/**
 * The process edge: the only place that reads process.*, and the only place an error becomes an
 * exit code (STYLE 4). Exit via process.exitCode so that piped stdout is flushed first.
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  // `refcat ... | head` closes the pipe early: stop quietly instead of crashing on EPIPE. Any other
  // failure to write the output (a full disk, /dev/full) is the command failing: one line, exit 1.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    const why = /^[A-Z]+: ([^,]+)/.exec(err.message)?.[1] ?? err.message;
    process.stderr.write(`Error: cannot write the output: ${why}\n`);
    process.exit(1);
  });
  const io: IO = {
    ctx: { cwd: process.cwd(), env: process.env, home: process.env.HOME || os.homedir(), proc: { pid: process.pid, isAlive } },
    stdout: (s) => void process.stdout.write(s),
    drain: () => (process.stdout.writableNeedDrain ? once(process.stdout, 'drain').then(() => {}) : Promise.resolve()),
    stderr: (s) => void process.stderr.write(s),
    stdin: process.stdin,
    color: colorWanted(),
    progress: Boolean(process.stderr.isTTY) && process.env.TERM !== 'dumb',
    writeHooks: crashHooks(process.env.REFCAT_TEST_CRASH),
  };
  try {
    process.exitCode = await runCli(argv, io);
  } catch (err) {
    // A bug, not a user's mistake: one line unless REFCAT_DEBUG=1 asks for the stack.
    if (process.env.REFCAT_DEBUG === '1') process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    else process.stderr.write(`Error: internal error: ${(err as Error)?.message ?? String(err)} (set REFCAT_DEBUG=1 for details)\n`);
    process.exitCode = 1;
  }
}

/**
 * A crash on demand, for the end-to-end test that an interrupted export leaves the old file
 * (docs/reference.md#writing-files-ref-export-and-fd-write): `REFCAT_TEST_CRASH=before-rename` kills the process with SIGKILL (no cleanup, as in
 * a real crash) once the temp file is complete and before it is renamed over the target.
 */
function crashHooks(value: string | undefined): IO['writeHooks'] {
  if (value !== 'before-rename') return undefined;
  return { beforeRename: () => process.kill(process.pid, 'SIGKILL') };
}

/**
 * Signal 0 checks for existence without signalling. EPERM means the process exists but belongs
 * to someone else: alive, so its lock is respected.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** chalk's rules for stderr without loading chalk: NO_COLOR / FORCE_COLOR, else a TTY. */
function colorWanted(): boolean {
  const env = process.env;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(process.stderr.isTTY) && env.TERM !== 'dumb';
}
