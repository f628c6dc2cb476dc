import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitIgnore } from '../../src/core/walk/gitignore.js';
import { expandGlob } from '../../src/core/walk/glob.js';
import { tmpDir, writeFiles } from '../helpers/tmp.js';

// Differential: for each table row, a repository with that .gitignore (and nested ones), and
// refcat's verdict on every file compared with `git check-ignore`'s.
const FILES = [
  'a.txt', 'a.log', 'b.LOG', 'debug.log', 'x/a.log', 'x/y/a.log', 'logs/keep.txt', 'logs/a.txt', 'logs/sub/b.txt',
  'build/out.js', 'src/build/out.js', 'src/main.ts', 'src/main.test.ts', 'docs/guide.md', 'docs/api/index.md',
  'foo/bar/baz.txt', 'foo/baz.txt', 'a/b/c/d.txt', '#hash.txt', '!bang.txt', 'space .txt', 'tmp/file1', 'tmp/file2',
  'dir.txt/inner.txt', 'node/x.js', 'vendor/lib.js', 'vendor/keep/lib.js', 'data1.csv', 'data22.csv', 'q?.md',
];

const ROWS: [string, string][] = [
  ['plain name', 'a.txt'],
  ['extension glob', '*.log'],
  ['case matters', '*.log\n'],
  ['anchored name', '/a.log'],
  ['name in any folder', 'a.log'],
  ['folder anywhere', 'build/'],
  ['anchored folder', '/build/'],
  ['folder by name without slash', 'build'],
  ['negation after glob', '*.log\n!debug.log'],
  ['logs/** then a negation', 'logs/**\n!logs/keep.txt'],
  ['logs/ then a negation (cannot re-include)', 'logs/\n!logs/keep.txt'],
  ['logs/* then a negation', 'logs/*\n!logs/keep.txt'],
  ['leading **', '**/a.log'],
  ['inner **', 'a/**/d.txt'],
  ['trailing **', 'docs/**'],
  ['middle segment glob', 'foo/*/baz.txt'],
  ['single * does not cross folders', 'foo/*.txt'],
  ['character class', 'data[0-9].csv'],
  ['character range and star', 'data[0-9]*.csv'],
  ['question mark', 'tmp/file?'],
  ['escaped hash', '\\#hash.txt'],
  ['escaped bang', '\\!bang.txt'],
  ['comment line', '# a.txt\nb.LOG'],
  ['trailing spaces ignored', 'a.txt   '],
  ['escaped trailing space', 'space\\ .txt'],
  ['blank lines', '\n\n*.md\n\n'],
  ['test files', '*.test.ts'],
  ['folder then re-include inside (not possible)', 'vendor/\n!vendor/keep/'],
  ['vendor/* and re-include a folder', 'vendor/*\n!vendor/keep/'],
  ['name that is a folder and a file', 'dir.txt'],
  ['double negation', '*.txt\n!a.txt\na.txt'],
  ['everything then keep md', '*\n!*.md\n!*/'],
  ['directory glob with slash', 'x/*/'],
  ['escaped question mark', 'q\\?.md'],
  ['nested path anchored by inner slash', 'x/y/a.log'],
  ['star slash star', '*/*.log'],
  ['two extensions', '*.txt\n*.md'],
  ['negate a folder glob', 'x/\n!x/'],
  ['anchored glob', '/*.txt'],
  ['anchored deep', '/src/*.ts'],
  ['unanchored deep name', 'out.js'],
  ['double star name', '**/build'],
  ['double star folder slash', '**/build/'],
  ['double star middle anchored', 'src/**/out.js'],
  ['bracket negation', 'data[!1].csv'],
  ['bracket caret', 'data[^1]*.csv'],
  ['star in folder part', 'l*/keep.txt'],
  ['question in folder part', 'fo?/baz.txt'],
  ['everything', '*'],
  ['everything but folders', '*\n!*/'],
  ['negation of nothing', '!a.txt'],
  ['re-include after folder glob', 'foo/**\n!foo/baz.txt'],
  ['re-include deep after folder glob', 'foo/**\n!foo/bar/baz.txt'],
  ['folder star re-include folder then file', 'a/*\n!a/b/\na/b/*\n!a/b/c/'],
  ['dot star', '.*'],
  ['uppercase extension', '*.LOG'],
  ['file in named folder only', 'docs/*.md'],
  ['trailing slash on a file name', 'a.txt/'],
  ['literal brackets escaped', '\\[x\\].txt'],
  ['glob with dash range', 'data[1-2]2.csv'],
  ['tilde and plus are plain', 'a~.txt\na+.txt'],
];

function gitIgnored(repo: string, files: string[]): Set<string> {
  let out = '';
  try {
    out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: repo, input: files.join('\n'), encoding: 'utf8' });
  } catch (err) {
    // exit 1: nothing ignored
    out = (err as { stdout?: string }).stdout ?? '';
  }
  return new Set(out.split('\n').filter(Boolean));
}

/** What `**\/*` expands to in the repository, relative and sorted. */
function walked(repo: string): string[] {
  return expandGlob('**/*', repo, false)
    .map((f) => path.relative(repo, f).split(path.sep).join('/'))
    .sort();
}

function repoWith(gitignore: string, nested: Record<string, string> = {}): string {
  const repo = tmpDir(Object.fromEntries(FILES.map((f) => [f, 'x\n'])));
  execFileSync('git', ['init', '-q'], { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo } });
  writeFiles(repo, { '.gitignore': gitignore, ...nested });
  return repo;
}

describe('.gitignore rules agree with git check-ignore', () => {
  it.each(ROWS)('%s', (_name, gitignore) => {
    const repo = repoWith(gitignore);
    const expected = gitIgnored(repo, FILES);
    const ours = new GitIgnore(repo);
    const differ = FILES.filter((f) => ours.ignores(path.join(repo, f)) !== expected.has(f));
    expect(differ).toEqual([]);
    // The walk asks folder by folder (pruning ignored ones): it must keep exactly the same files.
    expect(walked(repo)).toEqual(FILES.filter((f) => !expected.has(f)).sort());
  });

  it('nested .gitignore files and .git/info/exclude', () => {
    const repo = repoWith('*.log\n', { 'x/.gitignore': '!a.log\n', 'docs/.gitignore': 'api/\n' });
    fs.writeFileSync(path.join(repo, '.git', 'info', 'exclude'), 'tmp/\n');
    const expected = gitIgnored(repo, FILES);
    const ours = new GitIgnore(repo);
    expect(FILES.filter((f) => ours.ignores(path.join(repo, f)) !== expected.has(f))).toEqual([]);
    expect(walked(repo)).toEqual(FILES.filter((f) => !expected.has(f)).sort());
  });
});
