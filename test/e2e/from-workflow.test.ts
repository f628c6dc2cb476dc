import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, refcat } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

const W = path.join(FIXTURES, 'workflows');
const inW = (args: string[]) => refcat(args, { cwd: W });

// docs/reference.md#extraction-output: --from-workflow FILE also takes the REFCAT and CONTEXT refs of a .conv.
describe('refcat --from-workflow', () => {
  it('takes REFCAT refs and CONTEXT / CONTEXT-OPTIONAL @ patterns, in order, INCLUDEs and ALIAS followed', () => {
    expect(inW(['--from-workflow', 'good/review.conv', '--spec'])).toEqual({
      code: 0,
      stdout: [
        '@src/app.py', // CONTEXT @../src/app.py (relative to the workflow's folder)
        '@src/app.py', // CONTEXT-OPTIONAL @../src/*.py
        '@src/app.py#L5-L8',
        'shared:util.js', // ALIAS shared=../lib
        '@src/app.py#L11-L13', // #/class Greeter/:block
        '@src/app.py#L1', // from parts/common.conv, relative to that file's folder
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('comes after the refs of the command line, which resolve against cwd as usual', () => {
    const r = inW(['@lib/util.js#L2', '--from-workflow', 'good/parts/common.conv', '--spec']);
    expect(r.stdout).toBe('@lib/util.js#L2\n@src/app.py#L1\n');
  });

  it('extracts content as markdown', () => {
    const r = inW(['--from-workflow', 'good/parts/common.conv']);
    expect(r.stdout).toBe(`## From: src/app.py:1 (relative to ${W})\n\`\`\`python\n1 | """A small module the workflows refer to."""\n\`\`\`\n`);
  });

  it('--list-files lists the files of the workflow refs', () => {
    expect(inW(['--from-workflow', 'good/review.conv', '--list-files']).stdout).toBe('src/app.py\nshared:util.js\n');
  });

  it('a CONTEXT-OPTIONAL that matches nothing is a warning, a REFCAT or CONTEXT one is an error', () => {
    const dir = tmpDir({ 'w.conv': 'CONTEXT-OPTIONAL @maybe.md\nREFCAT @a.txt\nPROMPT p\n', 'a.txt': 'x\n' });
    expect(refcat(['--from-workflow', 'w.conv', '-q'], { cwd: dir })).toEqual({
      code: 0,
      stdout: 'x\n',
      stderr: `Warning: CONTEXT-OPTIONAL pattern matches nothing: @maybe.md\n  Searched: ${dir}/maybe.md\n  at w.conv:1\n`,
    });
    const missing = refcat(['--from-workflow', path.join(W, 'bad/lenient.conv'), '--spec'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error: REFCAT ref not found: @docs/missing.md\n');
    expect(missing.stderr).toContain("Error: Unknown REFCAT alias: 'loop' in loop:Sources/A.swift\n");
  });

  it('a CONTEXT-OPTIONAL whose selector finds nothing in its file is a warning too; a CONTEXT one an error (as validate says)', () => {
    const dir = tmpDir({ 'o.conv': 'CONTEXT-OPTIONAL @a.txt#/zzz/\nREFCAT @a.txt\nPROMPT p\n', 'c.conv': 'CONTEXT @a.txt#/zzz/\nPROMPT p\n', 'a.txt': 'x\n' });
    expect(refcat(['--from-workflow', 'o.conv', '-q'], { cwd: dir })).toEqual({
      code: 0,
      stdout: 'x\n',
      stderr: 'Warning: CONTEXT-OPTIONAL selects nothing: Pattern /zzz/ not found in @a.txt#/zzz/\n  at o.conv:1\n',
    });
    expect(refcat(['--from-workflow', 'c.conv', '-q'], { cwd: dir })).toEqual({ code: 1, stdout: '', stderr: 'Error: Pattern /zzz/ not found in @a.txt#/zzz/\n  at c.conv:1\n' });
    expect(refcat(['validate', 'c.conv'], { cwd: dir }).code).toBe(1);
  });

  it('a ref error says where the workflow holds the ref; an unparseable ref there is exit 1, as in validate', () => {
    const dir = tmpDir({ 'w.conv': 'PROMPT p\nREFCAT @a.txt#L0 @gone.txt\n', 'a.txt': 'x\n' });
    const r = refcat(['--from-workflow', 'w.conv', '--spec'], { cwd: dir });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'Error: Cannot parse ref: @a.txt#L0 (line numbers start at 1; L0 is not a line)',
        '  at w.conv:2',
        'Error: REFCAT ref not found: @gone.txt',
        `  Searched: ${dir}/gone.txt`,
        '  at w.conv:2',
        '',
      ].join('\n'),
    });
    expect(refcat(['--from-workflow', 'w.conv', '@a.txt#L0'], { cwd: dir }).code).toBe(2);
  });

  it('a missing, unreadable or cyclic INCLUDE is an error with its place, as validate reports it', () => {
    const r = inW(['--from-workflow', 'bad/include.conv', '--spec']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Error: INCLUDE file not found: ../nope.conv\n  Searched: ${W}/nope.conv\n  at bad/include.conv:2\n`);
    expect(r.stderr).toBe(inW(['validate', 'bad/include.conv']).stderr);
  });

  it('a workflow that does not exist is a usage error', () => {
    expect(inW(['--from-workflow', 'nope.conv'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --from-workflow: Cannot read nope.conv: no such file\n',
    });
  });

  it('a workflow without refs extracts nothing, exit 0', () => {
    expect(inW(['--from-workflow', 'bad/blocks.conv'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
