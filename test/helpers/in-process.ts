import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';
import type { RunResult } from './cli.js';
import { testCtx } from './tmp.js';

/**
 * Run the CLI in this process, as the bin would (same argv handling, same exit codes), with
 * stdout and stderr captured. For tests whose subject is not the process edge: no spawn, so no
 * start-up cost and nothing for a busy machine to slow down.
 */
export async function refcatInProcess(args: string[], opts: { cwd: string; input?: string; env?: Record<string, string> }): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    ctx: testCtx(opts.cwd, opts.env),
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    stdin: Readable.from([opts.input ?? '']),
    color: false,
  });
  return { code, stdout, stderr };
}
