import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, freshHome, refcat } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

const D = path.join(FIXTURES, 'docs-tree');
const inD = (args: string[]) => refcat(args, { cwd: D });
const lines = (...l: string[]) => l.map((x) => x + '\n').join('');

// fixtures/docs-tree: README.md mixes valid refs, broken refs and look-alikes; drafts/ and
// *.generated.md are in .sdqctlignore; node_modules/ and build/ are skipped by default; the
// workspace.lock.json defines the alias `loop` (so `key:value.txt` is an unknown alias there, not prose).
const BROKEN = [
  '  ERROR README.md:7: Broken reference: @src/missing.py',
  '  ERROR README.md:7: Broken reference: @src/app.py#/no such thing/',
  '    Pattern /no such thing/ not found in @src/app.py#/no such thing/',
  '  ERROR README.md:7: Broken reference: loop:Sources/Missing.swift',
  '  ERROR README.md:8: Broken reference: old:lib/server.js',
  "    Unknown REFCAT alias: 'old' in old:lib/server.js",
  '    Known aliases: LoopKit, loop (workspace.lock.json)',
  '  ERROR README.md:8: Broken reference: key:value.txt',
  // The known aliases are said once per report, under the first unknown alias.
  "    Unknown REFCAT alias: 'key' in key:value.txt",
  '  ERROR README.md:8: Broken reference: @models/user.py#L1',
];
const CONV_BROKEN = [
  '  ERROR flows/check.conv:3: Broken reference: @docs/missing-context.md',
  '    CONTEXT pattern matches nothing: @docs/missing-context.md',
];
const WARNINGS = [
  '  WARNING README.md:9: REFCAT line range exceeds file bounds: @src/app.py#L5-L99',
  '    File has 6 lines, will clamp to L5-L6',
  '  WARNING docs/notes.txt:1: REFCAT line range exceeds file bounds: @src/models/user.py#L3',
  '    File has 2 lines, nothing left to select',
];

describe('refcat verify refs: text output (docs/reference.md#verify-refs)', () => {
  it('scans . by default: file types, default excludes, .sdqctlignore, look-alikes skipped', () => {
    expect(inD(['verify', 'refs'])).toEqual({
      code: 1,
      stdout: lines(
        '✗ FAILED: Scanned 5 file(s), found 21 reference(s): 14 valid, 7 broken (2 warnings)',
        ...BROKEN,
        ...CONV_BROKEN,
        ...WARNINGS,
      ),
      stderr: 'Skipped 2 files that .sdqctlignore lists (name a file to check it anyway)\n',
    });
  });

  it('PASSED when nothing is broken (warnings allowed)', () => {
    expect(inD(['verify', 'refs', 'docs'])).toEqual({
      code: 0,
      stdout: lines('✓ PASSED: Scanned 2 file(s), found 4 reference(s): 4 valid, 0 broken (1 warning)', ...WARNINGS.slice(2)),
      stderr: '',
    });
  });

  it('a doc ref resolves in the doc folder, then the scanned folder, then cwd', () => {
    // docs/guide.md has @../src/app.py#L4 (its own folder) and @src/app.py#L5 (the root).
    expect(inD(['verify', 'refs', 'docs/guide.md']).stdout).toBe('✓ PASSED: Scanned 1 file(s), found 2 reference(s): 2 valid, 0 broken\n');
  });

  it('a .conv path: its REFCAT and CONTEXT refs, not the prompt text', () => {
    expect(inD(['verify', 'refs', 'flows/check.conv'])).toEqual({
      code: 1,
      stdout: lines('✗ FAILED: Scanned 1 file(s), found 3 reference(s): 2 valid, 1 broken', ...CONV_BROKEN),
      stderr: '',
    });
  });

  it('--suggest-fixes proposes existing files with the same name, selector kept', () => {
    const r = inD(['verify', 'refs', 'README.md', '--suggest-fixes']);
    expect(r.stdout).toContain('  ERROR README.md:8: Broken reference: @models/user.py#L1\n    Suggestion: Found: @src/models/user.py#L1\n');
  });

  it('--suggest-fixes searches the whole repository, not only the scanned folder, from its root or a subfolder', () => {
    const dir = tmpDir({ '.git/HEAD': 'ref: refs/heads/main\n', 'docs/README.md': 'See @models/user.py#L1.\n', 'src/models/user.py': 'class User: pass\n' });
    const fromRoot = refcat(['verify', 'refs', 'docs/', '--suggest-fixes'], { cwd: dir });
    expect(fromRoot.stdout).toContain('  ERROR docs/README.md:1: Broken reference: @models/user.py#L1\n    Suggestion: Found: @src/models/user.py#L1\n');
    const fromDocs = refcat(['verify', 'refs', '--suggest-fixes'], { cwd: path.join(dir, 'docs') });
    expect(fromDocs.stdout).toContain('  ERROR README.md:1: Broken reference: @models/user.py#L1\n    Suggestion: Found: @../src/models/user.py#L1\n');
    // The suggestion resolves from where the doc is.
    const fixed = tmpDir({ '.git/HEAD': 'ref: refs/heads/main\n', 'docs/README.md': 'See @../src/models/user.py#L1.\n', 'src/models/user.py': 'class User: pass\n' });
    expect(refcat(['verify', 'refs'], { cwd: path.join(fixed, 'docs') }).code).toBe(0);
  });

  it('--suggest-fixes looks below the alias root for alias refs', () => {
    const dir = tmpDir({
      'doc.md': 'See lib:old/A.swift#L2 here.\n',
      'vendor/Sources/Deep/A.swift': 'a\nb\n',
    });
    const r = refcat(['verify', 'refs', '--alias', 'lib=vendor', '--suggest-fixes'], { cwd: dir });
    expect(r.stdout).toBe(
      lines(
        '✗ FAILED: Scanned 1 file(s), found 1 reference(s): 0 valid, 1 broken',
        '  ERROR doc.md:1: Broken reference: lib:old/A.swift#L2',
        '    Suggestion: Found: lib:Sources/Deep/A.swift#L2',
      ),
    );
  });

  it('--suggest-fixes keeps a heading anchor and does not choke on it', () => {
    const dir = tmpDir({ 'README.md': 'See @docs/GUIDE.md#install.\n', 'handbook/GUIDE.md': '# Guide\n' });
    expect(refcat(['verify', 'refs', '--suggest-fixes'], { cwd: dir })).toEqual({
      code: 1,
      stdout: lines(
        '✗ FAILED: Scanned 2 file(s), found 1 reference(s): 0 valid, 1 broken',
        '  ERROR README.md:1: Broken reference: @docs/GUIDE.md#install',
        '    Suggestion: Found: @handbook/GUIDE.md#install',
      ),
      stderr: '',
    });
  });

  it('a finding that is not a ref (a malformed ALIAS) fails the run without counting as a ref', () => {
    const dir = tmpDir({ 'w.conv': 'ALIAS bad\nPROMPT x\n' });
    const r = refcat(['verify', 'refs', 'w.conv'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('✗ FAILED: Scanned 1 file(s), found 0 reference(s): 0 valid, 0 broken');
  });

  it('-e/--exclude skips files and folders', () => {
    expect(inD(['verify', 'refs', '-e', 'README.md', '--exclude', 'flows/']).stdout).toBe(
      lines('✓ PASSED: Scanned 3 file(s), found 5 reference(s): 5 valid, 0 broken (1 warning)', ...WARNINGS.slice(2)),
    );
  });

  it('--strict: warnings fail the check', () => {
    const r = inD(['verify', 'refs', 'docs', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('✗ FAILED: Scanned 2 file(s), found 4 reference(s): 4 valid, 0 broken (1 warning, --strict)');
  });

  it('an empty folder passes', () => {
    expect(refcat(['verify', 'refs'], { cwd: tmpDir() })).toEqual({
      code: 0,
      stdout: '✓ PASSED: Scanned 0 file(s), found 0 reference(s): 0 valid, 0 broken\n',
      stderr: '',
    });
  });
});

describe('refcat verify refs: --json and --format github', () => {
  it('--json: counts, and errors / warnings with file, line, ref, code, message', () => {
    const r = inD(['verify', 'refs', 'docs', 'flows', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      version: 1,
      passed: false,
      files_scanned: 3,
      not_scanned: 0,
      refs_found: 7,
      valid: 6,
      broken: 1,
      errors: [
        {
          code: 'context_no_match',
          message: 'CONTEXT pattern matches nothing: @docs/missing-context.md',
          file: 'flows/check.conv',
          line: 3,
          ref: '@docs/missing-context.md',
          details: [`Searched: ${D}/flows/docs/missing-context.md`, `Searched: ${D}/docs/missing-context.md`],
        },
      ],
      warnings: [
        {
          code: 'clamped',
          message: 'REFCAT line range exceeds file bounds: @src/models/user.py#L3',
          file: 'docs/notes.txt',
          line: 1,
          ref: '@src/models/user.py#L3',
          details: ['File has 2 lines, nothing left to select'],
        },
      ],
      skipped: [],
      snippets: { verbatim: 0, excerpt: 0, stale: 0, refs: [] },
    });
  });

  it('--format github: annotations, then the summary line', () => {
    const r = inD(['verify', 'refs', 'README.md', '--format', 'github', '--suggest-fixes']);
    expect(r).toEqual({
      code: 1,
      stdout: lines(
        '::error file=README.md,line=7::Broken reference: @src/missing.py',
        '::error file=README.md,line=7::Broken reference: @src/app.py#/no such thing/%0APattern /no such thing/ not found in @src/app.py#/no such thing/',
        '::error file=README.md,line=7::Broken reference: loop:Sources/Missing.swift',
        "::error file=README.md,line=8::Broken reference: old:lib/server.js%0AUnknown REFCAT alias: 'old' in old:lib/server.js%0AKnown aliases: LoopKit, loop (workspace.lock.json)",
        "::error file=README.md,line=8::Broken reference: key:value.txt%0AUnknown REFCAT alias: 'key' in key:value.txt%0AKnown aliases: LoopKit, loop (workspace.lock.json)",
        '::error file=README.md,line=8::Broken reference: @models/user.py#L1%0ASuggestion: Found: @src/models/user.py#L1',
        '::warning file=README.md,line=9::REFCAT line range exceeds file bounds: @src/app.py#L5-L99%0AFile has 6 lines, will clamp to L5-L6',
        '✗ FAILED: Scanned 1 file(s), found 13 reference(s): 7 valid, 6 broken (1 warning)',
      ),
      stderr: '',
    });
  });
});

describe('refcat verify refs: a malformed ~/.sdqctl/aliases.yaml', () => {
  it('is the error of the alias ref, and the rest of the report is written: --json on stdout, exit 1', () => {
    const home = freshHome();
    fs.mkdirSync(path.join(home, '.sdqctl'));
    fs.writeFileSync(path.join(home, '.sdqctl', 'aliases.yaml'), 'aliases: [oops\n');
    const dir = tmpDir({ 'docs/a.md': 'See @missing.md and `x:foo/y.py`\n' });
    const r = refcat(['verify', 'refs', 'docs', '--json'], { cwd: dir, home });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ passed: false, refs_found: 2, valid: 0, broken: 2 });
    expect(json.errors).toEqual([
      expect.objectContaining({ code: 'not_found', ref: '@missing.md', line: 1 }),
      expect.objectContaining({ code: 'invalid_config', ref: 'x:foo/y.py', line: 1, message: expect.stringMatching(/^Invalid config file ~\/\.sdqctl\/aliases\.yaml: not valid YAML \(.+\)$/) }),
    ]);
  });
});

describe('refcat verify refs: usage', () => {
  it.each<[string[], string]>([
    [['verify', 'refs', 'nope'], 'Error: No such file or folder: nope\n'],
    [['verify', 'refs', ''], "Error: No such file or folder: '' (an empty path; . names the current folder)\n"],
    [['verify', 'refs', '--json', '--format', 'text'], 'Error: Conflicting output formats: json and text (pick one)\n'],
    [['verify', 'refs', '--suggest-fix'], "Error: unknown option '--suggest-fix' (did you mean --suggest-fixes?)\n"],
    [['verify', 'ref'], "Error: unknown command 'ref' (did you mean refs?)\n"],
  ])('%j', (args, stderr) => {
    expect(inD(args)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('`refcat verify` alone shows its help on stderr, exit 2', () => {
    const r = inD(['verify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refs [options] [paths...]');
  });

  it('--help explains what is scanned and what a ref is', () => {
    const r = inD(['verify', 'refs', '--help']);
    expect(r.code).toBe(0);
    for (const text of ['--suggest-fixes', '--strict', '--format <format>', '.sdqctlignore', 'Exit codes:']) expect(r.stdout).toContain(text);
  });
});
