import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { validateConv, validateWorkflows } from '../../src/core/workflow/validate-conv.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { refcatInProcess } from '../helpers/in-process.js';

/** Validate `text` as flow.conv in a folder holding `files`; findings as `line severity code`. */
function check(text: string, files: Record<string, string> = {}, options: Parameters<typeof validateConv>[2] = {}) {
  const dir = tmpDir({ ...files, 'flow.conv': text });
  const r = validateConv('flow.conv', testCtx(dir), options);
  return [...r.errors, ...r.warnings].map((f) => `${f.line ?? '-'} ${f.severity} ${f.code}`);
}

const withPrompt = (...lines: string[]) => ['MODEL m', ...lines, 'PROMPT p'].join('\n') + '\n';

describe('validateConv: values (docs/reference.md#validate)', () => {
  it.each<[string, string | null]>([
    ['MAX-CYCLES 1', null],
    ['MAX-CYCLES 10', null],
    ['MAX-CYCLES 0', 'invalid_value'],
    ['MAX-CYCLES -1', 'invalid_value'],
    ['MAX-CYCLES 2.5', 'invalid_value'],
    ['MAX-CYCLES', 'invalid_value'],
    ['CONTEXT-LIMIT 80%', null],
    ['CONTEXT-LIMIT 100%', null],
    ['CONTEXT-LIMIT 1%', null],
    ['CONTEXT-LIMIT 62.5%', null],
    ['CONTEXT-LIMIT 80', null],
    ['CONTEXT-LIMIT 0%', 'invalid_value'],
    ['CONTEXT-LIMIT 101%', 'invalid_value'],
    ['CONTEXT-LIMIT 0.8', 'invalid_value'],
    ['CONTEXT-LIMIT eighty', 'invalid_value'],
    ['ALIAS lib=src', null],
    ['ALIAS =src', 'invalid_alias'],
    ['ALIAS lib=', 'invalid_alias'],
    ['ALIAS 9lib=src', 'invalid_alias'],
    ['REQUIRE', 'invalid_value'],
  ])('%s', (line, code) => {
    expect(check(withPrompt(line), { 'src/a.txt': 'a\n' })).toEqual(code ? [`2 error ${code}`] : []);
  });

  // sdqctl stores any value of these four and a value outside the set does nothing: a warning that
  // says so (error only under --strict), with a did-you-mean for a near miss.
  it.each<[string, string | null]>([
    ['ON-CONTEXT-LIMIT stop', null],
    ['ON-CONTEXT-LIMIT compcat', "ON-CONTEXT-LIMIT 'compcat' has no effect (did you mean compact?)"],
    ['ON-CONTEXT-LIMIT Compact', "ON-CONTEXT-LIMIT 'Compact' has no effect (did you mean compact?)"],
    ['ON-CONTEXT-LIMIT 3', "ON-CONTEXT-LIMIT '3' has no effect (expected compact, stop or continue)"],
    ['ON-CONTEXT-LIMIT', "ON-CONTEXT-LIMIT '' has no effect (expected compact, stop or continue)"],
    ['CHECKPOINT-AFTER each-prompt', null],
    ['CHECKPOINT-AFTER never', null],
    ['CHECKPOINT-AFTER each-cylce', "CHECKPOINT-AFTER 'each-cylce' has no effect (did you mean each-cycle?)"],
    ['CHECKPOINT-AFTER 2', "CHECKPOINT-AFTER '2' has no effect (expected each-cycle, each-prompt or never)"],
    ['CHECKPOINT-AFTER', "CHECKPOINT-AFTER '' has no effect (expected each-cycle, each-prompt or never)"],
    ['RUN-ON-ERROR continue', null],
    ['RUN-ON-ERROR contineu', "RUN-ON-ERROR 'contineu' has no effect (did you mean continue?)"],
    ['RUN-ON-ERROR 1', "RUN-ON-ERROR '1' has no effect (expected stop or continue)"],
    ['RUN-ON-ERROR', "RUN-ON-ERROR '' has no effect (expected stop or continue)"],
    ['VALIDATION-MODE exploratory', null],
    ['VALIDATION-MODE lenent', "VALIDATION-MODE 'lenent' has no effect (did you mean lenient?)"],
    ['VALIDATION-MODE 0', "VALIDATION-MODE '0' has no effect (expected strict, lenient or exploratory)"],
    ['VALIDATION-MODE', "VALIDATION-MODE '' has no effect (expected strict, lenient or exploratory)"],
  ])('%s', (line, message) => {
    const dir = tmpDir({ 'flow.conv': withPrompt(line) });
    const loose = validateConv('flow.conv', testCtx(dir));
    const strict = validateConv('flow.conv', testCtx(dir), { strict: true });
    const shown = (fs: typeof loose.errors) => fs.map((f) => `${f.line} ${f.code} ${f.message}`);
    expect(loose.errors).toEqual([]);
    expect(shown(loose.warnings)).toEqual(message ? [`2 invalid_value ${message}`] : []);
    expect(shown(strict.errors)).toEqual(message ? [`2 invalid_value ${message}`] : []);
    expect(strict.valid).toBe(message === null);
  });

  it('a MODEL with no value is an error; no MODEL at all is fine (sdqctl has a default)', () => {
    expect(check('MODEL\nPROMPT p\n')).toEqual(['1 error missing_model']);
    expect(check('PROMPT p\n')).toEqual([]);
  });
});

describe('validateConv: ELIDE chains', () => {
  it.each<[string, string[]]>([
    ['RUN x\nRUN-RETRY 3 "fix"\nPROMPT p\n', []],
    ['RUN x\nRUN-RETRY 3 "fix"\nELIDE\nPROMPT p\n', ['2 error elide_conflict']],
    ['PROMPT p\nELIDE\nRUN x\nRUN-RETRY 2 "fix"\n', ['4 error elide_conflict']],
    ['RUN x\nON-SUCCESS\nPROMPT ok\nEND\nELIDE\nPROMPT p\n', ['2 error elide_conflict']],
    ['RUN x\nON-FAILURE\nELIDE\nPROMPT fix\nEND\nPROMPT p\n', []],
    ['RUN x\nELIDE\nRUN y\nON-FAILURE\nPROMPT fix\nEND\nPROMPT p\n', ['4 error elide_conflict']],
    ['RUN x\nCOMPACT\nELIDE\nPROMPT p\nRUN y\nRUN-RETRY 1 "again"\n', []],
  ])('%j', (text, expected) => {
    expect(check(text)).toEqual(expected);
  });
});

describe('validateConv: refs and options', () => {
  it('CONTEXT-EXCLUDE globs are not checked', () => {
    expect(check(withPrompt('CONTEXT-EXCLUDE @gen/**', 'CONTEXT @gen/out.md', 'CONTEXT @other.md'))).toEqual(['4 error context_no_match']);
  });

  it.each<[string, string[]]>([
    // sdqctl injects the files a CONTEXT pattern finds, never a folder (docs/reference.md#validate).
    ['CONTEXT @lib', ['2 error context_no_match']],
    ['CONTEXT @lib/', ['2 error context_no_match']],
    ['CONTEXT-OPTIONAL @lib', ['2 warning context_no_match']],
    ['CONTEXT @lib/*', []],
    ['CONTEXT @lib/a.py', []],
  ])('%s (lib/ a folder)', (line, expected) => {
    expect(check(withPrompt(line), { 'lib/a.py': 'x\n' })).toEqual(expected);
  });

  it.each<[string, string[]]>([
    // A selector is checked as --from-workflow applies it: a CONTEXT whose selector finds nothing
    // fails the run, so it fails validate; optional, it warns in both.
    ['CONTEXT @lib/a.py#/class /', []],
    ['CONTEXT @lib/a.py#/zzz/', ['2 error pattern_not_found']],
    ['CONTEXT-OPTIONAL @lib/a.py#/zzz/', ['2 warning context_no_match']],
    ['CONTEXT @lib/*.py#/zzz/', ['2 error pattern_not_found']],
    ['CONTEXT @lib/a.py#L1-L9', ['2 warning clamped']],
  ])('%s (a selector)', (line, expected) => {
    expect(check(withPrompt(line), { 'lib/a.py': 'class A:\n    pass\n' })).toEqual(expected);
  });

  it('VALIDATION-MODE exploratory relaxes missing refs like --allow-missing; the last VALIDATION-MODE wins', () => {
    expect(check(withPrompt('VALIDATION-MODE exploratory', 'REFCAT @nope.md'))).toEqual(['3 warning not_found']);
    expect(check(withPrompt('VALIDATION-MODE lenient', 'VALIDATION-MODE strict', 'REFCAT @nope.md'))).toEqual(['4 error not_found']);
  });

  it('--strict turns every warning into an error', () => {
    expect(check(withPrompt('REFCAT @a.txt#L1-L9'), { 'a.txt': 'a\n' }, { strict: true })).toEqual(['2 error clamped']);
  });

  it('reads the workflow and its INCLUDEs through an injected reader', () => {
    const dir = tmpDir({ 'a.txt': 'a\n' });
    const texts: Record<string, string> = {
      [`${dir}/flow.conv`]: 'MODEL m\nINCLUDE part.conv\n',
      [`${dir}/part.conv`]: 'REFCAT @a.txt\nPROMPT p\n',
    };
    const r = validateConv('flow.conv', testCtx(dir), { readFile: (p) => texts[p] ?? '' });
    expect(r).toMatchObject({ valid: true, errors: [], warnings: [], refs: 1 });
    expect(r.conv!.files).toEqual([`${dir}/flow.conv`, `${dir}/part.conv`]);
  });

  it('a workflow that cannot be read is one finding about the whole file', () => {
    const dir = tmpDir();
    const r = validateConv('missing.conv', testCtx(dir));
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual([
      { severity: 'error', code: 'unreadable', message: 'Cannot read missing.conv: no such file', details: [], file: `${dir}/missing.conv`, line: null },
    ]);
  });
});

describe('files kept out by ignore rules are counted, never skipped silently', () => {
  const workflow = 'MODEL gpt-4\nPROMPT hi\n';
  const files = {
    'a.conv': workflow,
    'examples/b.conv': workflow,
    'examples/c.conv': workflow,
    'drafts/d.conv': workflow,
    '.sdqctlignore': 'examples\n',
  };

  it('validate . says how many files .sdqctlignore and --exclude kept out', async () => {
    const dir = tmpDir(files);
    const r = await refcatInProcess(['validate', '.', '-e', 'drafts/**'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✓ a.conv: valid\n');
    expect(r.stderr).toBe(
      'Skipped 1 file that --exclude matches\nSkipped 2 files that .sdqctlignore lists (name a file to check it anyway)\n',
    );
  });

  it('names the skipped files in JSON and as a GitHub notice', async () => {
    const dir = tmpDir(files);
    const json = JSON.parse((await refcatInProcess(['validate', '.', '--json'], { cwd: dir })).stdout);
    expect(json.skipped).toEqual([
      { path: 'examples/b.conv', by: '.sdqctlignore' },
      { path: 'examples/c.conv', by: '.sdqctlignore' },
    ]);
    const gh = await refcatInProcess(['validate', '.', '--format', 'github'], { cwd: dir });
    expect(gh.stdout).toContain('::notice::Skipped 2 files that .sdqctlignore lists');
  });

  it('a file named on the command line is checked whatever .sdqctlignore says', async () => {
    const dir = tmpDir(files);
    const r = await refcatInProcess(['validate', 'examples/b.conv'], { cwd: dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '✓ examples/b.conv: valid\n', '']);
  });

  it('verify refs reports the same skips', async () => {
    const dir = tmpDir({ ...files, 'notes.md': 'see @a.conv\n', 'examples/x.md': 'see @a.conv\n' });
    const r = await refcatInProcess(['verify', 'refs'], { cwd: dir });
    expect(r.stderr).toBe('Skipped 3 files that .sdqctlignore lists (name a file to check it anyway)\n');
  });
});

describe('verify refs reports progress to whoever asks', () => {
  it('calls onProgress once per file, in order, before checking it', async () => {
    const { verifyRefs } = await import('../../src/core/verify-refs/verify-refs.js');
    const dir = tmpDir({ 'a.md': 'see @b.md\n', 'b.md': 'x\n', 'c.md': 'y\n' });
    const calls: [number, number][] = [];
    await verifyRefs(['.'], testCtx(dir), { onProgress: (i, n) => calls.push([i, n]) });
    expect(calls).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
  });
});

describe('validate reads each workflow once', () => {
  it('a workflow with a symbol ref is read once, for its include graph, its grammars and its checks alike', async () => {
    const dir = tmpDir({ 'a.ts': 'export function f() {\n  return 1;\n}\n', 'flow.conv': withPrompt('REFCAT @a.ts#f') });
    const reads: string[] = [];
    const readFile = (p: string) => {
      reads.push(p);
      return fs.readFileSync(p, 'utf8');
    };
    const [r] = await validateWorkflows(['flow.conv'], testCtx(dir), { readFile });
    expect(r!.errors).toEqual([]);
    expect(r!.refs).toBe(1);
    expect(reads.filter((p) => p.endsWith('flow.conv'))).toHaveLength(1);
  });

  it('a workflow that cannot be read is one error, read once', async () => {
    const dir = tmpDir({});
    let reads = 0;
    const [r] = await validateWorkflows(['gone.conv'], testCtx(dir), {
      readFile: (p) => {
        reads++;
        return fs.readFileSync(p, 'utf8');
      },
    });
    expect(r!.valid).toBe(false);
    expect(r!.errors).toHaveLength(1);
    expect(reads).toBeLessThanOrEqual(1);
  });
});
