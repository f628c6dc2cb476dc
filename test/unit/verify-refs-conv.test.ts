import { describe, expect, it } from 'vitest';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// A .conv path gets its REFCAT/CONTEXT refs checked with validate's rules
// (docs/reference.md#verify-refs): both commands give a workflow's refs the same verdict.
describe('verify refs on a .conv: the verdicts of validate', () => {
  it.each<[string, string, number, number, string]>([
    // workflow, flags, validate exit, verify refs exit, the verify refs report
    ['VALIDATION-MODE lenient\nCONTEXT @missing.md\nPROMPT go\n', '', 0, 0,
      '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken (1 warning)\n' +
      '  WARNING len.conv:2: CONTEXT pattern matches nothing: @missing.md\n' +
      '    Searched: {dir}/missing.md\n' +
      '    Reported as a warning: VALIDATION-MODE lenient\n'],
    ['VALIDATION-MODE exploratory\nREFCAT @nope.md\nPROMPT go\n', '', 0, 0,
      '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken (1 warning)\n' +
      '  WARNING len.conv:2: REFCAT ref not found: @nope.md\n' +
      '    Searched: {dir}/nope.md\n' +
      '    Reported as a warning: VALIDATION-MODE exploratory\n'],
    ['VALIDATION-MODE lenient\nCONTEXT @missing.md\nPROMPT go\n', '--strict', 1, 1,
      '✗ FAILED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken (1 warning, --strict)\n' +
      '  WARNING len.conv:2: CONTEXT pattern matches nothing: @missing.md\n' +
      '    Searched: {dir}/missing.md\n' +
      '    Reported as a warning: VALIDATION-MODE lenient\n'],
    // The last VALIDATION-MODE wins, as in validate.
    ['VALIDATION-MODE lenient\nVALIDATION-MODE strict\nCONTEXT @missing.md\nPROMPT go\n', '', 1, 1,
      '✗ FAILED: Scanned 1 file(s), found 1 reference(s): 0 valid, 1 broken\n' +
      '  ERROR len.conv:3: Broken reference: @missing.md\n' +
      '    CONTEXT pattern matches nothing: @missing.md\n'],
  ])('%j %s', async (conv, flags, validateCode, verifyCode, report) => {
    const dir = tmpDir({ 'len.conv': conv });
    const extra = flags ? [flags] : [];
    const validated = await refcatInProcess(['validate', 'len.conv', ...extra], { cwd: dir });
    const verified = await refcatInProcess(['verify', 'refs', 'len.conv', ...extra], { cwd: dir });
    expect(validated.code).toBe(validateCode);
    expect(verified).toEqual({ code: verifyCode, stdout: report.replaceAll('{dir}', dir), stderr: '' });
  }); // prettier-ignore

  it('--drift: a relaxed missing file has its WARNING line, not an UNKNOWN line as well (--json keeps the verdict)', async () => {
    const repo = GitRepo.init({ 'len.conv': 'VALIDATION-MODE lenient\nREFCAT @nope.txt#L3\nPROMPT go\n' });
    const r = await refcatInProcess(['verify', 'refs', 'len.conv', '--drift'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  WARNING len.conv:2: REFCAT ref not found: @nope.txt#L3\n');
    expect(r.stdout).not.toContain('UNKNOWN');
    const json = JSON.parse((await refcatInProcess(['verify', 'refs', 'len.conv', '--drift', '--json'], { cwd: repo.dir })).stdout);
    expect(json.drift.refs.map((e: { status: string }) => e.status)).toEqual(['unknown']);
  });
});

// A ref in an INCLUDEd file is checked once per run, at its own file and line, however many
// scanned workflows reach it (docs/reference.md#verify-refs).
describe('verify refs: a ref in an INCLUDEd .conv is checked once', () => {
  const part = { 'src/b.txt': 'b\n', 'flows/parts/p.conv': 'REFCAT @../../src/b.txt @nope.txt\n' };
  const once = '✗ FAILED: Scanned 2 file(s), found 2 reference(s): 1 valid, 1 broken\n  ERROR flows/parts/p.conv:1: Broken reference: @nope.txt\n';
  it.each<[string, Record<string, string>, string[], string]>([
    ['a folder holding the includer and the part', { ...part, 'flows/main.conv': 'INCLUDE parts/p.conv\nPROMPT go\n' }, ['flows'], once],
    ['both named, the part first', { ...part, 'flows/main.conv': 'INCLUDE parts/p.conv\nPROMPT go\n' }, ['flows/parts/p.conv', 'flows/main.conv'], once],
    ['the part alone', { ...part, 'flows/main.conv': 'INCLUDE parts/p.conv\nPROMPT go\n' }, ['flows/parts/p.conv'], once.replace('2 file(s)', '1 file(s)')],
    ['the includer alone', { ...part, 'flows/main.conv': 'INCLUDE parts/p.conv\nPROMPT go\n' }, ['flows/main.conv'], once.replace('2 file(s)', '1 file(s)')],
    ['two includers', { ...part, 'flows/main.conv': 'INCLUDE parts/p.conv\nPROMPT go\n', 'flows/other.conv': 'INCLUDE parts/p.conv\nPROMPT go\n' }, ['flows'], once.replace('2 file(s)', '3 file(s)')],
    ['an INCLUDE cycle', { 'src/b.txt': 'b\n', 'flows/a.conv': 'INCLUDE b.conv\nREFCAT @nope.txt\n', 'flows/b.conv': 'INCLUDE a.conv\nREFCAT @../src/b.txt\n' }, ['flows'],
      '✗ FAILED: Scanned 2 file(s), found 2 reference(s): 1 valid, 1 broken\n  ERROR flows/a.conv:2: Broken reference: @nope.txt\n'],
    // The part uses its includer's ALIAS: it is checked as part of the includer, even when the
    // scan meets it first.
    ['a part using its includer\'s ALIAS', { 'src/b.txt': 'b\n', 'flows/a/p.conv': 'REFCAT lib:b.txt\n', 'flows/main.conv': 'ALIAS lib=../src\nINCLUDE a/p.conv\nPROMPT go\n' }, ['flows'],
      '✓ PASSED: Scanned 2 file(s), found 1 reference(s): 1 valid, 0 broken\n'],
  ])('%s', async (_what, files, paths, stdout) => {
    const dir = tmpDir(files);
    expect(await refcatInProcess(['verify', 'refs', ...paths], { cwd: dir })).toEqual({ code: stdout.startsWith('✓') ? 0 : 1, stdout, stderr: '' });
  }); // prettier-ignore

  it('--json counts each ref once', async () => {
    const dir = tmpDir({ ...part, 'flows/main.conv': 'INCLUDE parts/p.conv\nPROMPT go\n' });
    const json = JSON.parse((await refcatInProcess(['verify', 'refs', 'flows', '--json'], { cwd: dir })).stdout);
    expect([json.refs_found, json.valid, json.broken, json.errors.length]).toEqual([2, 1, 1, 1]);
  });

  it('--fix --strict: the fixed ref is fixed, not also moved, and the run passes', async () => {
    const repo = GitRepo.init({ 'src/b.txt': numbered('b', 30), 'flows/main.conv': 'INCLUDE parts/p.conv\nPROMPT go\n', 'flows/parts/p.conv': 'REFCAT @../../src/b.txt#L4\n' });
    repo.commit('insert', { 'src/b.txt': 'x\ny\n' + numbered('b', 30) });
    expect(await refcatInProcess(['verify', 'refs', 'flows', '--fix', '--strict'], { cwd: repo.dir })).toEqual({
      code: 0,
      stdout:
        '✓ PASSED: Scanned 2 file(s), found 1 reference(s): 1 valid, 0 broken; drift: 0 unchanged, 0 moved, 0 changed, 0 deleted, 0 unknown, 0 anchored, 1 fixed\n' +
        '  FIXED flows/parts/p.conv:1: @../../src/b.txt#L4 → @../../src/b.txt#L6\n',
      stderr: '',
    });
    expect(repo.read('flows/parts/p.conv')).toBe('REFCAT @../../src/b.txt#L6\n');
  });
});
