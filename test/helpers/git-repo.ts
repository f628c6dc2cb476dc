import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tmpDir, writeFiles } from './tmp.js';

/**
 * Real git repositories for drift tests: real commits with fixed authors and dates (each commit
 * one day after the last, from 2024-01-01), and no user or system config read.
 */
export class GitRepo {
  /** Days after 2024-01-01 of the next commit, minus one. */
  day = 0;
  constructor(readonly dir: string) {}

  static init(files: Record<string, string | Buffer> = {}, dir = tmpDir()): GitRepo {
    fs.mkdirSync(dir, { recursive: true });
    const repo = new GitRepo(dir);
    repo.git('init', '-q', '-b', 'main');
    if (Object.keys(files).length > 0) repo.commit('initial', files);
    return repo;
  }

  git(...args: string[]): string {
    const date = `${new Date(Date.UTC(2024, 0, 1) + this.day * 86_400_000).toISOString().slice(0, 19)}Z`;
    return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'core.autocrlf=false', ...args], {
      cwd: this.dir,
      env: {
        PATH: process.env.PATH,
        HOME: this.dir,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
      encoding: 'utf8',
      // git's chatter on stderr (`Automatic merge went well; ...`) stays out of the test output;
      // a failure still carries it in the thrown error.
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** Write `files` (null deletes), stage everything, commit; the new commit's full sha. */
  commit(message: string, files: Record<string, string | Buffer | null> = {}): string {
    for (const [rel, content] of Object.entries(files)) {
      if (content === null) fs.rmSync(path.join(this.dir, rel), { force: true });
      else writeFiles(this.dir, { [rel]: content });
    }
    this.day++;
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.head();
  }

  mv(from: string, to: string): void {
    fs.mkdirSync(path.dirname(path.join(this.dir, to)), { recursive: true });
    this.git('mv', from, to);
  }

  head(): string {
    return this.git('rev-parse', 'HEAD').trim();
  }

  read(rel: string): string {
    return fs.readFileSync(path.join(this.dir, rel), 'utf8');
  }

  write(files: Record<string, string | Buffer>): void {
    writeFiles(this.dir, files);
  }
}

/** `count` distinct numbered lines: `name 1`, `name 2`, ... each with its newline. */
export function numbered(name: string, count: number, from = 1): string {
  let out = '';
  for (let i = from; i < from + count; i++) out += `${name} ${i}\n`;
  return out;
}
