import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, refcat } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

const W = path.join(FIXTURES, 'workflows');
const inW = (args: string[]) => refcat(args, { cwd: W });
const lines = (...l: string[]) => l.map((x) => x + '\n').join('');

// docs/reference.md#validate: every check, each finding with its file and line, one summary line per file.
describe('refcat validate: text output', () => {
  it('a valid workflow: one summary line, nothing on stderr, exit 0', () => {
    expect(inW(['validate', 'good/review.conv'])).toEqual({ code: 0, stdout: '✓ good/review.conv: valid\n', stderr: '' });
  });

  it('a folder: every *.conv below it, sorted, a part checked as part of its includer; warnings keep exit 0', () => {
    expect(inW(['validate', 'good'])).toEqual({
      code: 0,
      stdout: lines('✓ good/review.conv: valid', '  good/parts/common.conv: checked as part of good/review.conv', '✓ good/warnings.conv: valid (4 warnings)'),
      stderr: lines(
        'Warning: REFCAT line range exceeds file bounds: @src/app.py#L10-L500',
        '  File has 17 lines, will clamp to L10-L17',
        '  at good/warnings.conv:2',
        'Warning: CONTEXT-OPTIONAL pattern matches nothing: @notes/*.md',
        '  at good/warnings.conv:3',
        "Warning: Unknown directive 'PROMTP' (did you mean PROMPT?)",
        '  at good/warnings.conv:4',
        'Warning: Text outside any directive is ignored (line 7)',
        '  Starts with: and this line belongs to nothing',
        '  RUN on line 6 ended the PROMPT of line 5; RUN takes one line',
        '  at good/warnings.conv:7',
      ),
    });
  });

  // One fixture per family of checks: [what, file, summary line, stderr lines].
  it.each<[string, string, string, string[]]>([
    ['ref errors: missing file (every place searched), unknown alias, pattern, binary, unparseable, folder, glob, CONTEXT, not a declaration', 'bad/refs.conv', '✗ bad/refs.conv: 9 errors', [
      'Error: REFCAT ref not found: @src/missing.py#L1-L5',
      `  Searched: ${W}/bad/src/missing.py`,
      `  Searched: ${W}/src/missing.py`,
      '  at bad/refs.conv:2',
      "Error: Unknown REFCAT alias: 'nope' in nope:file.py",
      '  Known aliases: (none)',
      '  Define in ~/.sdqctl/aliases.yaml or use ALIAS directive',
      '  Or: --alias NAME=PATH, or a workspace.lock.json in this folder or above (see: refcat aliases)',
      '  at bad/refs.conv:3',
      'Error: Pattern /def nowhere/ not found in @src/app.py#/def nowhere/',
      '  at bad/refs.conv:4',
      'Error: Binary file: @src/logo.gif',
      '  at bad/refs.conv:5',
      'Error: Cannot parse ref: @src/app.py#L0 (line numbers start at 1; L0 is not a line)',
      '  at bad/refs.conv:6',
      'Error: Is a directory: @src',
      '  A glob reads the files in it: @src/**',
      '  at bad/refs.conv:7',
      'Error: Glob matched no files: @src/*.rs',
      '  at bad/refs.conv:8',
      'Error: CONTEXT pattern matches nothing: @docs/*.md',
      '  at bad/refs.conv:9',
      'Error: Line 2 matched by /import sys/ does not look like a function declaration: import sys (in @src/app.py#/import sys/:function)',
      '  at bad/refs.conv:10',
    ]],
    ['value checks (a value outside an enumeration has no effect: a warning), MODEL without a value, bad ALIAS, empty REFCAT, no PROMPT at all', 'bad/values.conv', '✗ bad/values.conv: 6 errors, 4 warnings', [
      'Error: Missing MODEL directive',
      '  MODEL needs a model name, like MODEL gpt-4',
      '  at bad/values.conv:1',
      "Error: Invalid MAX-CYCLES value 'three' (expected a whole number > 0)",
      '  at bad/values.conv:2',
      "Error: Invalid CONTEXT-LIMIT value '150%' (expected a percentage from 1% to 100%, like 80%)",
      '  at bad/values.conv:3',
      "Warning: ON-CONTEXT-LIMIT 'pause' has no effect (expected compact, stop or continue)",
      '  sdqctl ignores any other value',
      '  at bad/values.conv:4',
      "Warning: CHECKPOINT-AFTER '1' has no effect (expected each-cycle, each-prompt or never)",
      '  sdqctl ignores any other value',
      '  at bad/values.conv:5',
      "Warning: RUN-ON-ERROR 'ignore' has no effect (expected stop or continue)",
      '  sdqctl ignores any other value',
      '  at bad/values.conv:6',
      "Warning: VALIDATION-MODE 'loose' has no effect (expected strict, lenient or exploratory)",
      '  sdqctl ignores any other value',
      '  at bad/values.conv:7',
      "Error: Invalid ALIAS value 'broken' (expected NAME=PATH)",
      '  at bad/values.conv:8',
      'Error: REFCAT needs at least one ref, like REFCAT @src/app.py#L10-L20',
      '  at bad/values.conv:9',
      'Error: No PROMPT directives found',
      '  at bad/values.conv',
    ]],
    ['ON-FAILURE / ON-SUCCESS / END structure', 'bad/blocks.conv', '✗ bad/blocks.conv: 3 errors', [
      'Error: ON-SUCCESS without a preceding RUN',
      '  ON-SUCCESS ... END gives the steps to take when a RUN fails or succeeds; put it after that RUN',
      '  at bad/blocks.conv:3',
      'Error: END without a matching ON-FAILURE or ON-SUCCESS',
      '  at bad/blocks.conv:5',
      'Error: Unclosed ON-FAILURE block (missing END)',
      '  at bad/blocks.conv:7',
    ]],
    ['RUN-RETRY and ON-FAILURE inside an ELIDE chain (ELIDE inside the block is fine)', 'bad/elide.conv', '✗ bad/elide.conv: 2 errors', [
      'Error: RUN-RETRY cannot be used inside an ELIDE chain',
      '  ELIDE merges the RUN of line 2 with its neighbours into one AI turn; RUN-RETRY needs turns of its own',
      '  at bad/elide.conv:3',
      'Error: ON-FAILURE block cannot be used inside an ELIDE chain',
      '  ELIDE merges the RUN of line 7 with its neighbours into one AI turn; ON-FAILURE needs turns of its own',
      '  at bad/elide.conv:9',
    ]],
    ['REQUIRE @file and cmd:name (node is on the PATH, the other command is not)', 'bad/require.conv', '✗ bad/require.conv: 2 errors', [
      'Error: REQUIRE not satisfied: @src/missing.txt not found',
      `  Searched: ${W}/bad/src/missing.txt`,
      `  Searched: ${W}/src/missing.txt`,
      '  at bad/require.conv:2',
      "Error: REQUIRE not satisfied: command 'refcat-no-such-command-xyz' not found on PATH",
      '  at bad/require.conv:2',
    ]],
    ['INCLUDE missing, a folder, and cyclic (the cycle is reported in the file that closes it)', 'bad/include.conv', '✗ bad/include.conv: 3 errors', [
      'Error: INCLUDE file not found: ../nope.conv',
      `  Searched: ${W}/nope.conv`,
      '  at bad/include.conv:2',
      'Error: Cannot read INCLUDE file ../src: is a directory',
      '  at bad/include.conv:4',
      'Error: INCLUDE cycle: bad/cycle-a.conv -> bad/cycle-b.conv -> bad/cycle-a.conv',
      '  at bad/cycle-b.conv:1',
    ]],
  ])('%s', (_what, file, summary, stderr) => {
    expect(inW(['validate', file])).toEqual({ code: 1, stdout: summary + '\n', stderr: lines(...stderr) });
  }); // prettier-ignore

  it('VALIDATION-MODE lenient makes missing files and unknown aliases warnings, and says so', () => {
    const r = inW(['validate', 'bad/lenient.conv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✓ bad/lenient.conv: valid (2 warnings)\n');
    expect(r.stderr).toContain('Warning: CONTEXT pattern matches nothing: @docs/missing.md\n');
    expect(r.stderr).toContain('  Reported as a warning: VALIDATION-MODE lenient\n  at bad/lenient.conv:4\n');
  });

  it('refs resolve against the workflow folder first, then the working directory', () => {
    // good/review.conv writes @../src/app.py (its own folder); good/warnings.conv writes @src/app.py (cwd).
    const elsewhere = refcat(['validate', path.join(W, 'good', 'review.conv')], { cwd: tmpDir() });
    expect(elsewhere.code).toBe(0);
    const fromCwd = refcat(['validate', path.join(W, 'good', 'warnings.conv')], { cwd: tmpDir() });
    expect(fromCwd.stderr).toContain('Error: REFCAT ref not found: @src/app.py#L10-L500\n');
  });
});

describe('refcat validate: flags', () => {
  it('--allow-missing: missing files, unknown aliases, unmatched globs and CONTEXT become warnings', () => {
    const r = inW(['validate', 'bad/refs.conv', '--allow-missing']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('✗ bad/refs.conv: 5 errors, 4 warnings\n');
    expect(r.stderr).toContain(
      lines(
        'Warning: REFCAT ref not found: @src/missing.py#L1-L5',
        `  Searched: ${W}/bad/src/missing.py`,
        `  Searched: ${W}/src/missing.py`,
        '  Reported as a warning: --allow-missing',
        '  at bad/refs.conv:2',
      ),
    );
    expect(r.stderr).toContain('Error: Pattern /def nowhere/ not found in @src/app.py#/def nowhere/\n');
  });

  it('--strict: warnings count as errors', () => {
    const r = inW(['validate', 'good/warnings.conv', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('✗ good/warnings.conv: 4 errors\n');
    expect(r.stderr).toContain("Error: Unknown directive 'PROMTP' (did you mean PROMPT?)\n  Reported as an error: --strict\n  at good/warnings.conv:4\n");
  });

  it('--json: the versioned document of docs/reference.md#validate, exit code kept', () => {
    const r = inW(['validate', 'good/review.conv', 'bad/blocks.conv', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      version: 1,
      valid: false,
      files: [
        { path: 'good/review.conv', valid: true, errors: [], warnings: [] },
        {
          path: 'bad/blocks.conv',
          valid: false,
          errors: [
            {
              code: 'block_structure',
              message: 'ON-SUCCESS without a preceding RUN',
              file: 'bad/blocks.conv',
              line: 3,
              ref: null,
              details: ['ON-SUCCESS ... END gives the steps to take when a RUN fails or succeeds; put it after that RUN'],
            },
            { code: 'block_structure', message: 'END without a matching ON-FAILURE or ON-SUCCESS', file: 'bad/blocks.conv', line: 5, ref: null },
            { code: 'block_structure', message: 'Unclosed ON-FAILURE block (missing END)', file: 'bad/blocks.conv', line: 7, ref: null },
          ],
          warnings: [],
        },
      ],
      skipped: [],
    });
  });

  it('--json carries refs and codes of ref findings', () => {
    const doc = JSON.parse(inW(['validate', 'bad/refs.conv', '--json']).stdout);
    expect(doc.files[0].errors.map((e: { code: string; ref: string; line: number }) => `${e.line} ${e.code} ${e.ref}`)).toEqual([
      '2 not_found @src/missing.py#L1-L5',
      '3 unknown_alias nope:file.py',
      '4 pattern_not_found @src/app.py#/def nowhere/',
      '5 binary @src/logo.gif',
      '6 invalid_ref @src/app.py#L0',
      '7 is_directory @src',
      '8 glob_no_match @src/*.rs',
      '9 context_no_match @docs/*.md',
      '10 not_a_declaration @src/app.py#/import sys/:function',
    ]);
  });

  it('--format github: one ::error / ::warning line per finding, details as %0A, summary lines kept', () => {
    const r = inW(['validate', 'bad/blocks.conv', 'good/warnings.conv', '--format', 'github']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      lines(
        '::error file=bad/blocks.conv,line=3::ON-SUCCESS without a preceding RUN%0AON-SUCCESS ... END gives the steps to take when a RUN fails or succeeds; put it after that RUN',
        '::error file=bad/blocks.conv,line=5::END without a matching ON-FAILURE or ON-SUCCESS',
        '::error file=bad/blocks.conv,line=7::Unclosed ON-FAILURE block (missing END)',
        '✗ bad/blocks.conv: 3 errors',
        '::warning file=good/warnings.conv,line=2::REFCAT line range exceeds file bounds: @src/app.py#L10-L500%0AFile has 17 lines, will clamp to L10-L17',
        '::warning file=good/warnings.conv,line=3::CONTEXT-OPTIONAL pattern matches nothing: @notes/*.md',
        "::warning file=good/warnings.conv,line=4::Unknown directive 'PROMTP' (did you mean PROMPT?)",
        '::warning file=good/warnings.conv,line=7::Text outside any directive is ignored (line 7)%0AStarts with: and this line belongs to nothing%0ARUN on line 6 ended the PROMPT of line 5; RUN takes one line',
        '✓ good/warnings.conv: valid (4 warnings)',
      ),
    );
  });

  it('--format github: a finding about the whole file has no line; % is escaped', () => {
    const dir = tmpDir({ 'x.conv': 'MODEL m\nCONTEXT-LIMIT 200%\n' });
    const r = refcat(['validate', 'x.conv', '--format', 'github'], { cwd: dir });
    expect(r.stdout).toBe(
      lines(
        "::error file=x.conv,line=2::Invalid CONTEXT-LIMIT value '200%25' (expected a percentage from 1%25 to 100%25, like 80%25)",
        '::error file=x.conv::No PROMPT directives found',
        '✗ x.conv: 2 errors',
      ),
    );
  });

  it('globs and -e/--exclude (gitignore-style, relative to the folder or to cwd)', () => {
    expect(inW(['validate', 'good/*.conv']).stdout).toBe(lines('✓ good/review.conv: valid', '✓ good/warnings.conv: valid (4 warnings)'));
    expect(inW(['validate', 'good', '-e', 'parts', '--exclude', 'warnings.conv']).stdout).toBe('✓ good/review.conv: valid\n');
    expect(inW(['validate', 'good', '-e', 'good/parts/**', '-e', '*.conv', '-e', '!review.conv']).stdout).toBe('✓ good/review.conv: valid\n');
  });

  it('--alias on the command line wins over an ALIAS directive of the same name', () => {
    const r = inW(['validate', 'good/review.conv', '--alias', 'shared=src']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: REFCAT ref not found: shared:util.js\n');
  });

  it('a file given by name must be a .conv file; a file twice is validated once', () => {
    const dir = tmpDir({ 'flow.conv': 'MODEL m\nPROMPT p\n', 'src/app.py': 'print(1)\n' });
    expect(refcat(['validate', 'flow.conv', 'flow.conv', '.'], { cwd: dir })).toEqual({ code: 0, stdout: '✓ flow.conv: valid\n', stderr: '' });
    expect(refcat(['validate', 'src/app.py'], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: 'Error: Not a .conv file: src/app.py\n' });
  });
});

describe('refcat validate: usage errors (exit 2, one line, no stack)', () => {
  it.each<[string[], string]>([
    [['validate'], "Error: missing required argument 'files'\n"],
    [['validate', 'nope.conv'], 'Error: No such file or folder: nope.conv\n'],
    [['validate', 'nothing/*.conv'], 'Error: No files match nothing/*.conv\n'],
    [['validate', 'src'], 'Error: No .conv files found in src\n'],
    [['validate', 'good', '--json', '--format', 'github'], 'Error: Conflicting output formats: json and github (pick one)\n'],
    [['validate', 'good', '--format', 'xml'], "Error: option '--format <format>' argument 'xml' is invalid. Allowed choices are text, json, github.\n"],
    [['validate', 'good', '--alias', 'broken'], "Error: option '--alias <name=path>' argument 'broken' is invalid. expected NAME=PATH.\n"],
  ])('%j', (args, stderr) => {
    expect(inW(args)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('an unknown flag suggests the right one', () => {
    const r = inW(['validate', 'good', '--alow-missing']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("Error: unknown option '--alow-missing' (did you mean --allow-missing?)\n");
  });

  it('--help lists the flags and exit codes', () => {
    const r = inW(['validate', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--allow-missing', '--strict', '--json', '--format <format>', '-e, --exclude <glob>', '--alias <name=path>', 'Exit codes:']) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('a malformed workspace.lock.json is named, exit 1', () => {
    const dir = tmpDir({ 'workspace.lock.json': '{nope', 'x.conv': 'MODEL m\nREFCAT loop:a.swift\nPROMPT p\n' });
    const r = refcat(['validate', 'x.conv'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: Invalid config file .*workspace\.lock\.json: not valid JSON/);
  });
});

// The sdqctl corpus (fixtures/corpus-conv, copied from ../shared/corpus/conv): what validate
// reports when their referenced files are absent. The README explains each line.
describe('refcat validate: the sdqctl corpus from an empty folder', () => {
  const CORPUS = path.join(FIXTURES, 'corpus-conv');

  it('reports each workflow as the README says', () => {
    const r = refcat(['validate', CORPUS], { cwd: tmpDir() });
    const shown = (f: string) => `${CORPUS}/${f}`;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      lines(
        `✓ ${shown('backlog-processor.conv')}: valid (1 warning)`,
        `✓ ${shown('consult-design.conv')}: valid`,
        `✓ ${shown('elide-patterns.conv')}: valid`,
        `✓ ${shown('fix-broken-refs.conv')}: valid (4 warnings)`,
        `✓ ${shown('gap-analysis.conv')}: valid (3 warnings)`,
        `✓ ${shown('refcat-improvement.conv')}: valid (8 warnings)`,
        `✗ ${shown('test-discovery.conv')}: 6 errors, 1 warning`,
        `✓ ${shown('verify-with-run.conv')}: valid`,
      ),
    );
  });

  it('names the problems with their lines', () => {
    const doc = JSON.parse(refcat(['validate', CORPUS, '--json'], { cwd: tmpDir() }).stdout);
    const summary = Object.fromEntries(
      doc.files.map((f: { path: string; errors: { line: number; code: string }[]; warnings: { line: number; code: string }[] }) => [
        path.basename(f.path),
        [...f.errors.map((e) => `E${e.line} ${e.code}`), ...f.warnings.map((w) => `W${w.line} ${w.code}`)],
      ]),
    );
    expect(summary).toEqual({
      'backlog-processor.conv': ['W245 orphan_text'],
      'consult-design.conv': [],
      'elide-patterns.conv': [],
      'fix-broken-refs.conv': ['W23 context_no_match', 'W24 context_no_match', 'W150 invalid_value', 'W153 invalid_value'],
      'gap-analysis.conv': ['W16 context_no_match', 'W17 context_no_match', 'W18 context_no_match'],
      'refcat-improvement.conv': [
        'W24 context_no_match',
        'W25 context_no_match',
        'W26 context_no_match',
        'W27 context_no_match',
        'W92 orphan_text',
        'W100 orphan_text',
        'W134 invalid_value',
        'W137 invalid_value',
      ],
      'test-discovery.conv': [
        'E42 context_no_match',
        'E43 context_no_match',
        'E47 context_no_match',
        'E48 context_no_match',
        'E49 context_no_match',
        'E52 context_no_match',
        'W61 orphan_text',
      ],
      'verify-with-run.conv': [],
    });
  });

  // These workflows run under sdqctl; their numeric CHECKPOINT-AFTER values do nothing, which is a
  // warning (docs/reference.md#validate), so validate passes them, and fails them only with --strict.
  it('from a checkout of the sdqctl tree (stub files where the workflows point): exit 0 with warnings, exit 1 with --strict', () => {
    const files: Record<string, string> = {};
    const at: Record<string, string> = {
      'fix-broken-refs.conv': 'traceability/',
      'gap-analysis.conv': 'stpa/',
      'refcat-improvement.conv': 'tooling/',
    };
    for (const f of fs.readdirSync(CORPUS)) files[`examples/workflows/${at[f] ?? ''}${f}`] = fs.readFileSync(path.join(CORPUS, f), 'utf8');
    for (const f of [
      'docs/EXTENDING-VERIFIERS.md', 'sdqctl/verifiers/refs.py', 'sdqctl/core/refcat.py', 'tests/test_verifiers.py',
      'sdqctl/core/conversation.py', 'sdqctl/commands/run.py', 'INTEGRATION-PROPOSAL.md', 'README.md', 'TEST-PLAN.md',
    ]) files[f] = 'stub\n'; // prettier-ignore
    const cwd = tmpDir(files);
    const r = refcat(['validate', 'examples'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      lines(
        '✓ examples/workflows/backlog-processor.conv: valid (1 warning)',
        '✓ examples/workflows/consult-design.conv: valid',
        '✓ examples/workflows/elide-patterns.conv: valid',
        '✓ examples/workflows/stpa/gap-analysis.conv: valid (3 warnings)',
        '✓ examples/workflows/test-discovery.conv: valid (1 warning)',
        '✓ examples/workflows/tooling/refcat-improvement.conv: valid (4 warnings)',
        '✓ examples/workflows/traceability/fix-broken-refs.conv: valid (3 warnings)',
        '✓ examples/workflows/verify-with-run.conv: valid',
      ),
    );
    expect(r.stderr).toContain(
      "Warning: CHECKPOINT-AFTER '2' has no effect (expected each-cycle, each-prompt or never)\n" +
        '  sdqctl ignores any other value\n  at examples/workflows/traceability/fix-broken-refs.conv:153\n',
    );

    const strict = refcat(['validate', 'examples', '--strict'], { cwd });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('✗ examples/workflows/traceability/fix-broken-refs.conv: 3 errors\n');
    expect(strict.stderr).toContain(
      "Error: CHECKPOINT-AFTER '2' has no effect (expected each-cycle, each-prompt or never)\n" +
        '  sdqctl ignores any other value\n  Reported as an error: --strict\n  at examples/workflows/traceability/fix-broken-refs.conv:153\n',
    );
  });

  it('is a byte-for-byte copy of ../shared/corpus/conv when that folder is there', () => {
    const shared = path.resolve(FIXTURES, '../../shared/corpus/conv');
    if (!fs.existsSync(shared)) return;
    for (const f of fs.readdirSync(shared)) {
      expect(fs.readFileSync(path.join(CORPUS, f), 'utf8')).toBe(fs.readFileSync(path.join(shared, f), 'utf8'));
    }
  });
});
