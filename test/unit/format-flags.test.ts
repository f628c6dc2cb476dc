import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { IO } from '../../src/cli/io.js';
import { createProgram } from '../../src/cli/program.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// docs/reference.md#output-formats: `--json` is `--format json` on every command that has an
// output format, `--format` lists its choices, and two different formats at once are exit 2.

const ANSWER = 'Here:\n<ref id="fib">\ndef fib(n):\n    return n\n</ref>\n';

/** A folder with a transcript, a file to page, a lockfile defining one alias, and a store holding one fd. */
async function setup() {
  const dir = tmpDir({
    'answer.md': ANSWER,
    'flow.conv': 'PROMPT go\n',
    'big.txt': 'x\n'.repeat(50),
    'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio' }] }),
  });
  const stored = await refcatInProcess(['fd', 'read', '--store', 'store', '--page-size', '20'], { cwd: dir, input: 'line\n'.repeat(20) });
  expect(stored.code).toBe(0);
  return dir;
}

// [command words, the format --json stands for, another of its formats]
const COMMANDS: [string[], string, string][] = [
  [['fd', 'read', 'big.txt', '--page-size', '20'], 'json', 'xml'],
  [['fd', 'list', '--store', 'store'], 'json', 'text'],
  [['ref', 'list', '--from', 'answer.md'], 'json', 'xml'],
  [['ref', 'show', 'fib', '--from', 'answer.md'], 'json', 'raw'],
  [['ref', 'scan', 'answer.md', '--store', 'store'], 'json', 'xml'],
  [['aliases'], 'json', 'text'],
  [['validate', 'flow.conv'], 'json', 'github'],
  [['verify', 'refs', 'answer.md'], 'json', 'github'],
  [['@big.txt#L1-L2'], 'json', 'raw'],
];

describe('--json and --format mean the same on every command', () => {
  it.each(COMMANDS)('%j: --json is --format json', async (words, json) => {
    const dir = await setup();
    const a = await refcatInProcess([...words, '--json'], { cwd: dir });
    const b = await refcatInProcess([...words, '--format', json], { cwd: dir });
    // `ref scan` and `fd read` of stdin store anew: compare without the ids they hand out.
    expect(b).toEqual(a);
    expect(a.stderr).not.toMatch(/unknown option|Conflicting/);
    expect(() => JSON.parse(a.stdout)).not.toThrow();
  });

  it.each(COMMANDS)('%j: --json with another --format is a usage error, exit 2', async (words, _json, other) => {
    const dir = await setup();
    const r = await refcatInProcess([...words, '--json', '--format', other], { cwd: dir });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`Error: Conflicting output formats: json and ${other} (pick one)\n`);
  });

  it.each(COMMANDS)('%j: an unknown --format names the choices, exit 2', async (words) => {
    const dir = await setup();
    const r = await refcatInProcess([...words, '--format', 'html'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/argument 'html' is invalid\. Allowed choices are \w+(, \w+)+\./);
  });

  it('ref show: --raw is --format raw; --json holds the content exactly', async () => {
    const dir = await setup();
    const raw = await refcatInProcess(['ref', 'show', 'fib', '--from', 'answer.md', '--raw'], { cwd: dir });
    expect(raw).toEqual({ code: 0, stdout: 'def fib(n):\n    return n\n', stderr: '' });
    expect(await refcatInProcess(['ref', 'show', 'fib', '--from', 'answer.md', '--format', 'raw'], { cwd: dir })).toEqual(raw);
    const json = await refcatInProcess(['ref', 'show', 'fib', '--from', 'answer.md', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout)).toEqual({ version: 1, id: 'fib', line: 2, lines: 2, chars: 24, content: 'def fib(n):\n    return n' });
    const both = await refcatInProcess(['ref', 'show', 'fib', '--from', 'answer.md', '--raw', '--json'], { cwd: dir });
    expect(both).toEqual({ code: 2, stdout: '', stderr: 'Error: Conflicting output formats: json and raw (pick one)\n' });
    expect(await refcatInProcess(['ref', 'show', 'fib', '--from', 'answer.md', '--raw', '--format', 'raw'], { cwd: dir })).toEqual(raw);
  });

  it('fd read --json answers an fd error as JSON, as --format json does', async () => {
    const dir = await setup();
    const r = await refcatInProcess(['fd', 'read', 'fd:99', '--store', 'store', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'fd_error', error: 'not_found', fd: 'fd:99' });
  });
});

describe('--help: every command with one of --json and --format has both, and --format its choices', () => {
  const io: IO = { ctx: { cwd: '/', env: {}, home: '/nonexistent' }, stdout: () => {}, stderr: () => {}, stdin: process.stdin, color: false };
  const all = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(all)];
  const commands = all(createProgram(io, () => {}));

  it('the commands that print in more than one format', () => {
    const named = (c: Command): string => (c.parent && c.parent.name() !== 'refcat' ? `${c.parent.name()} ${c.name()}` : c.name());
    const withFormat = commands.filter((c) => c.options.some((o) => o.long === '--format')).map(named).sort();
    expect(withFormat).toEqual(['aliases', 'anchor', 'fd list', 'fd read', 'ref list', 'ref scan', 'ref show', 'refcat', 'symbols', 'validate', 'verify refs']);
    for (const c of commands) {
      const json = c.options.find((o) => o.long === '--json');
      const format = c.options.find((o) => o.long === '--format');
      expect(Boolean(json), named(c)).toBe(Boolean(format));
      if (!json || !format) continue;
      expect(json.description, named(c)).toBe('JSON output (same as --format json)');
      expect(format.argChoices, named(c)).toContain('json');
      expect(c.helpInformation().replace(/\s+/g, ' '), named(c)).toMatch(/--format <format> output format \(default: \w+\) \(choices: "\w+"(, "\w+")+\)/);
    }
  });
});
