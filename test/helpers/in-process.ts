import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
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
  // Streamed output may hand over bytes cut inside a character: decode them as a stream.
  const bytes = new StringDecoder('utf8');
  const code = await runCli(args, {
    ctx: testCtx(opts.cwd, opts.env),
    stdout: (s) => void (stdout += typeof s === 'string' ? s : bytes.write(s)),
    stderr: (s) => void (stderr += s),
    stdin: Readable.from([opts.input ?? '']),
    color: false,
  });
  return { code, stdout, stderr };
}
