import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

export const REPO = path.resolve(__dirname, '../..');
export const BIN = path.join(REPO, 'bin', 'refcat.js');
export const FIXTURES = path.join(REPO, 'fixtures');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  input?: string | Buffer;
  /** An existing home folder to use (default: a fresh empty one). */
  home?: string;
}

const homes: string[] = [];

afterAll(() => {
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh, empty home folder (removed after the test file): the bin never sees the real `~`. */
export function freshHome(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-home-'));
  homes.push(dir);
  return dir;
}

function envFor(opts: RunOptions): NodeJS.ProcessEnv {
  const home = opts.home ?? freshHome();
  return {
    PATH: process.env.PATH,
    HOME: home,
    SDQCTL_HOME: path.join(home, '.sdqctl'),
    NO_COLOR: '1',
    ...opts.env,
  };
}

/** Spawn the built `refcat` bin and collect exit code, stdout and stderr. */
export function refcat(args: string[], opts: RunOptions = {}): RunResult {
  if (!fs.existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  }
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? path.join(FIXTURES, 'basic'),
    env: envFor(opts),
    input: opts.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Async variant, for running several processes at once. */
export function refcatAsync(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? path.join(FIXTURES, 'basic'),
      env: envFor(opts),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
