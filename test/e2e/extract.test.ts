import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, freshHome, REPO, refcat } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

const BASIC = path.join(FIXTURES, 'basic');

/** A fresh home whose ~/.sdqctl/aliases.yaml holds `yaml`. */
function homeWithAliasYaml(yaml: string): string {
  const home = freshHome();
  fs.mkdirSync(path.join(home, '.sdqctl'));
  fs.writeFileSync(path.join(home, '.sdqctl', 'aliases.yaml'), yaml);
  return home;
}
const WORKSPACE = path.join(FIXTURES, 'workspace');

describe('refcat REFS (markdown)', () => {
  it('prints a line range with attribution, language and numbered lines', () => {
    const r = refcat(['@src/app.py#L9-L10']);
    expect(r).toEqual({
      code: 0,
      stdout: [
        `## From: src/app.py:9-10 (relative to ${BASIC})`,
        '```python',
        '9 |     def __init__(self, name):',
        '10 |         self.name = name',
        '```',
        '',
      ]
        .join('\n')
        .replace('9 |', ' 9 |'),
      stderr: '',
    });
  });

  it('is also reachable as `refcat refcat`', () => {
    expect(refcat(['refcat', '@src/app.py#L9-L10'])).toEqual(refcat(['@src/app.py#L9-L10']));
  });

  it('prints a whole file without line numbers, and refs without @', () => {
    const r = refcat(['Makefile']);
    expect(r.stdout).toBe(`## From: Makefile (relative to ${BASIC})\n\`\`\`text\nno extension\n\`\`\`\n`);
    expect(r.code).toBe(0);
  });

  it('separates several refs by one blank line, in the order given', () => {
    const r = refcat(['@lines.txt#L2', '@src/app.ts#L1']);
    expect(r.stdout).toBe(
      `## From: lines.txt:2 (relative to ${BASIC})\n\`\`\`txt\n2 | line 2\n\`\`\`\n\n` +
        `## From: src/app.ts:1 (relative to ${BASIC})\n\`\`\`typescript\n1 | import { readFileSync } from 'node:fs';\n\`\`\`\n`,
    );
  });

  it('makes the fence longer than any backtick run in the content', () => {
    const r = refcat(['@docs/guide.md#L9-L13', '--no-line-numbers', '--no-attribution']);
    expect(r.stdout).toBe('`````markdown\n````markdown\n```python\nprint("nested fence")\n```\n````\n`````\n');
  });

  it.each([
    [['--no-line-numbers'], '## From: lines.txt:9-10 (relative to BASE)\n```txt\nline 9\nline 10\n```\n'],
    [['--no-cwd'], '## From: lines.txt:9-10\n```txt\n 9 | line 9\n10 | line 10\n```\n'],
    [['--absolute'], '## From: BASE/lines.txt:9-10\n```txt\n 9 | line 9\n10 | line 10\n```\n'],
    [['--no-attribution'], '```txt\n 9 | line 9\n10 | line 10\n```\n'],
    [['-q'], 'line 9\nline 10\n'],
    [['--quiet'], 'line 9\nline 10\n'],
    [['--format', 'raw'], 'line 9\nline 10\n'],
    [['--spec'], '@lines.txt#L9-L10\n'],
    [['--format', 'spec'], '@lines.txt#L9-L10\n'],
    [['--spec', '--absolute'], '@BASE/lines.txt#L9-L10\n'],
    [['-C', '1', '-q'], 'line 8\nline 9\nline 10\nline 11\n'],
    [['--context', '1', '--spec'], '@lines.txt#L8-L11\n'],
    [['--validate-only'], '✓ @lines.txt#L9-L10 → lines.txt (9-10)\n'],
  ])('flags %j', (flags, expected) => {
    const r = refcat(['@lines.txt#L9-L10', ...flags]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(expected.replaceAll('BASE', BASIC));
    expect(r.code).toBe(0);
  });

  it('--relative-to sets the base for refs and shown paths', () => {
    const r = refcat(['@app.py#L1', '--relative-to', 'src']);
    expect(r.stdout.split('\n')[0]).toBe(`## From: app.py:1 (relative to ${path.join(BASIC, 'src')})`);
    expect(refcat(['@x', '--relative-to', 'nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: --relative-to: no such folder: ${path.join(BASIC, 'nope')}\n`,
    });
  });

  it('--spec resolves patterns and windows to concrete ranges that round-trip', () => {
    const r = refcat(['@src/app.py#/def greet/:-1..+1', '@src/app.py', '@src/app.ts#/class Counter/:class', '--spec']);
    expect(r.stdout).toBe('@src/app.py#L11-L13\n@src/app.py\n@src/app.ts#L16-L23\n');
    const again = refcat([...r.stdout.trim().split('\n'), '-q']);
    expect(again.stdout).toBe(refcat(['@src/app.py#/def greet/:-1..+1', '@src/app.py', '@src/app.ts#/class Counter/:class', '-q']).stdout);
  });
});

// docs/reference.md#ref-specs `:block` / `:function` / `:class`: one row per language family, through the built bin.
describe('blocks (:block, :function, :class)', () => {
  const cwd = path.join(FIXTURES, 'blocks');
  const unclosedWarning =
    'Warning: Block at line 1 never closes in @unclosed.js#/function broken/:function\n' +
    '  Selected to the end of the file (L1-L4); an unbalanced bracket, string or comment may have hidden its end\n';

  it.each([
    ['@routes.py#/def show_user/:function', 0, '@routes.py#L5-L13\n', ''],
    ['@routes.py#/@app.route/:function', 0, '@routes.py#L5-L13\n', ''],
    ['@tricky.ts#/function render/:function', 0, '@tricky.ts#L1-L5\n', ''],
    ['@tricky.ts#/function size/:function', 0, '@tricky.ts#L7\n', ''],
    ['@tricky.ts#/if \\(ready/:block', 0, '@tricky.ts#L10-L12\n', ''],
    [
      '@tricky.ts#/if \\(ready/:function',
      1,
      '',
      'Error: Line 10 matched by /if \\(ready/ does not look like a function declaration: if (ready) { (in @tricky.ts#/if \\(ready/:function)\n',
    ],
    ['@deploy.sh#/^deploy\\(\\)/:function', 0, '@deploy.sh#L2-L9\n', ''],
    ['@deploy.sh#/case/:block', 0, '@deploy.sh#L4-L7\n', ''],
    ['@tasks.rb#/class Tasks/:class', 0, '@tasks.rb#L1-L10\n', ''],
    ['@tasks.rb#/def run/:function', 0, '@tasks.rb#L2-L7\n', ''],
    ['@tasks.rb#/def name/:function', 0, '@tasks.rb#L9\n', ''],
    ['@unclosed.js#/function broken/:function', 0, '@unclosed.js#L1-L4\n', unclosedWarning],
  ])('%s --spec', (ref, code, stdout, stderr) => {
    expect(refcat([ref, '--spec'], { cwd })).toEqual({ code, stdout, stderr });
  });

  it('prints a decorated function with its decorators and a dedented string inside', () => {
    const r = refcat(['@routes.py#/def show_user/:function', '--no-cwd'], { cwd });
    expect(r).toEqual({
      code: 0,
      stdout: [
        '## From: routes.py:5-13',
        '```python',
        ' 5 | @app.route("/users/<id>")',
        ' 6 | @login_required',
        ' 7 | def show_user(id):',
        ' 8 |     query = """',
        ' 9 | SELECT * FROM users',
        '10 | WHERE id = %s',
        '11 | """',
        '12 |     # a brace in a comment: {',
        '13 |     return db.one(query, id)',
        '```',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('puts -C context lines around the decorators, not between them and the declaration', () => {
    expect(refcat(['@routes.py#/def show_user/:function', '-C', '1', '--spec'], { cwd })).toEqual({
      code: 0,
      stdout: '@routes.py#L4-L14\n',
      stderr: '',
    });
  });

  it('lists a block that never closes as a warning in --json, exit 0', () => {
    const r = refcat(['@unclosed.js#/function broken/:function', '--json'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    expect(json.refs.map((x: { spec: string }) => x.spec)).toEqual(['@unclosed.js#L1-L4']);
    expect(json.warnings).toEqual([
      {
        ref: '@unclosed.js#/function broken/:function',
        code: 'block_unclosed',
        message: 'Block at line 1 never closes in @unclosed.js#/function broken/:function',
        details: ['Selected to the end of the file (L1-L4); an unbalanced bracket, string or comment may have hidden its end'],
      },
    ]);
  });
});

describe('refcat --json', () => {
  it('lists refs, errors and warnings with a version, keeping the exit code', () => {
    const r = refcat(['@lines.txt#L199-L300', '@missing.txt', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    expect(json).toEqual({
      version: 1,
      refs: [
        {
          ref: '@lines.txt#L199-L300',
          spec: '@lines.txt#L199-L200',
          alias: null,
          path: path.join(BASIC, 'lines.txt'),
          display_path: 'lines.txt',
          language: 'txt',
          line_start: 199,
          line_end: 200,
          total_lines: 200,
          was_clamped: true,
          content: 'line 199\nline 200',
        },
      ],
      errors: [
        {
          ref: '@missing.txt',
          code: 'not_found',
          message: 'REFCAT ref not found: @missing.txt',
          details: [`Searched: ${path.join(BASIC, 'missing.txt')}`],
        },
      ],
      warnings: [
        {
          ref: '@lines.txt#L199-L300',
          code: 'clamped',
          message: 'REFCAT line range exceeds file bounds: @lines.txt#L199-L300',
          details: ['File has 200 lines, will clamp to L199-L200'],
        },
      ],
    });
  });

  it('exits 2 when a ref cannot be parsed, still listing the others', () => {
    const r = refcat(['@lines.txt#L1', '@lines.txt#L5-L2', '--json']);
    expect(r.code).toBe(2);
    const json = JSON.parse(r.stdout);
    expect(json.refs).toHaveLength(1);
    expect(json.errors).toEqual([
      {
        ref: '@lines.txt#L5-L2',
        code: 'invalid_ref',
        message: 'Cannot parse ref: @lines.txt#L5-L2 (start line 5 is after end line 2)',
      },
    ]);
  });

  it('`--validate-only --json` lists the checked refs without content', () => {
    const r = refcat(['@lines.txt', '@nope.txt', '--validate-only', '--json']);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.refs).toEqual([
      expect.objectContaining({ spec: '@lines.txt', line_start: 1, line_end: 200, total_lines: 200 }),
    ]);
    expect(json.refs[0]).not.toHaveProperty('content');
    expect(json.errors.map((e: { code: string }) => e.code)).toEqual(['not_found']);
  });

  it('`--json --spec` is JSON', () => {
    expect(JSON.parse(refcat(['@lines.txt#L1', '--json', '--spec']).stdout).refs[0].spec).toBe('@lines.txt#L1');
  });
});

describe('errors and exit codes', () => {
  it.each([
    [['@nope.py#L1'], 1, `Error: REFCAT ref not found: @nope.py#L1\n  Searched: ${path.join(BASIC, 'nope.py')}\n`],
    [['@src'], 1, 'Error: Is a directory: @src\n  A glob reads the files in it: @src/**\n'],
    [['@src/app.py#/zzz/'], 1, 'Error: Pattern /zzz/ not found in @src/app.py#/zzz/\n'],
    [['@src/app.py#L0'], 2, 'Error: Cannot parse ref: @src/app.py#L0 (line numbers start at 1; L0 is not a line)\n'],
    [['@a b.py'], 2, 'Error: Cannot parse ref: @a b.py (whitespace inside the ref)\n'],
    [['nope/*.py'], 1, 'Error: Glob matched no files: nope/*.py\n'],
    [
      ['foo:path/file.py#L10'],
      1,
      "Error: Unknown REFCAT alias: 'foo' in foo:path/file.py#L10\n  Known aliases: (none)\n  Define in ~/.sdqctl/aliases.yaml or use ALIAS directive\n  Or: --alias NAME=PATH, or a workspace.lock.json in this folder or above (see: refcat aliases)\n",
    ],
    [[], 2, "Error: No refs given (try 'refcat @path/to/file#L1-L20', or 'refcat --help')\n"],
    [['--jsn', '@x'], 2, "Error: unknown option '--jsn' (did you mean --json?)\n"],
    [['-C', '-1', '@x'], 2, "Error: option '-C, --context <n>' argument '-1' is invalid. expected a whole number >= 0.\n"],
    [['--format', 'html', '@x'], 2, "Error: option '--format <format>' argument 'html' is invalid. Allowed choices are markdown, json, spec, raw, cite.\n"],
    [['--json', '-q', '@x'], 2, 'Error: Conflicting output formats: json and raw (pick one)\n'],
    [['--alias', 'oops', '@x'], 2, "Error: option '--alias <name=path>' argument 'oops' is invalid. expected NAME=PATH.\n"],
  ])('%j exits %i', (args, code, stderr) => {
    const r = refcat(args);
    expect(r.stderr).toBe(stderr);
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
  });

  it('prints the good refs and reports the bad ones, exiting 1', () => {
    const r = refcat(['@lines.txt#L1', '@nope.txt', '@lines.txt#L2', '-q']);
    expect(r.stdout).toBe('line 1\nline 2\n');
    expect(r.stderr).toContain('Error: REFCAT ref not found: @nope.txt');
    expect(r.code).toBe(1);
  });

  it('reports a binary file', () => {
    const dir = tmpDir({ 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]) });
    expect(refcat(['@logo.png'], { cwd: dir })).toEqual({ code: 1, stdout: '', stderr: 'Error: Binary file: @logo.png\n' });
  });

  it('stops a catastrophic regex with a timeout error instead of hanging', () => {
    const dir = tmpDir({ 'evil.txt': ('a'.repeat(28) + 'b\n').repeat(20_000) });
    expect(refcat(['@evil.txt#/^(a+)+$/'], { cwd: dir })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Pattern /^(a+)+$/ timed out after 1.5 s of CPU time in @evil.txt#/^(a+)+$/\n',
    });
  });

  it('refuses a FIFO instead of waiting for a writer forever', () => {
    const dir = tmpDir();
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    expect(refcat(['@pipe'], { cwd: dir })).toEqual({ code: 1, stdout: '', stderr: 'Error: Not a regular file: @pipe\n' });
  });

  it('a malformed alias file fails only the alias refs; --json keeps everything in the JSON', () => {
    const home = homeWithAliasYaml('aliases: [\n');
    const r = refcat(['@lines.txt#L1', 'loop:a.swift', '--json'], { home });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    expect(json.refs.map((x: { spec: string }) => x.spec)).toEqual(['@lines.txt#L1']);
    expect(json.errors).toEqual([expect.objectContaining({ code: 'invalid_config', ref: 'loop:a.swift' })]);
  });

  it('reports a malformed aliases.yaml by name, not as a stack trace', () => {
    const home = homeWithAliasYaml('aliases: [\n');
    const r = refcat(['loop:a.swift'], { home });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: Invalid config file ~\/\.sdqctl\/aliases\.yaml: not valid YAML \(.+\)\n$/);
  });

  it('prints help and the version', () => {
    const help = refcat(['--help']);
    expect(help.code).toBe(0);
    // The main job first: how to extract, and every extraction flag, at the top level.
    expect(help.stdout).toMatch(/^Usage: refcat \[options\] <refs\.\.\.> {4}extract refs \(the main job\)\n {7}refcat <command> \[options\]\n/);
    expect(help.stdout).toContain('aliases');
    for (const flag of ['--json', '-q, --quiet', '-C, --context <n>', '--alias <name=path>', '--max-tokens <n>', '--from-workflow <file>']) {
      expect(help.stdout).toMatch(new RegExp(`^ {2}${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\S`, 'm'));
    }
    expect(help.stdout).not.toContain('refcat refcat --help');
    const sub = refcat(['refcat', '--help']);
    expect(sub.stdout).toContain('--no-line-numbers');
    expect(sub.stdout).toContain('--validate-only');
    const version = refcat(['--version']);
    expect(version.stdout).toBe(JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).version + '\n');
  });
});

describe('globs (docs/reference.md#globs)', () => {
  it('expands sorted, skipping .gitignore, node_modules and .git; a selector applies to every file', () => {
    const r = refcat(['**/*.{js,txt,log}#L1', '--spec']);
    expect(r.stdout).toBe('@lines.txt#L1\n');
    const all = refcat(['**/*.{js,txt,log}#L1', '--spec', '--no-ignore']);
    expect(all.stdout).toBe('@build/out.txt#L1\n@ignored.log#L1\n@lines.txt#L1\n@node_modules/dep/index.js#L1\n');
  });

  it('a pattern after a glob selects in the files it matches; none matching is one error', () => {
    const r = refcat(['src/*#/class /:+0', '--spec']);
    expect(r).toEqual({ code: 0, stdout: '@src/Widget.java#L3\n@src/app.py#L6\n@src/app.ts#L16\n', stderr: '' });
    expect(refcat(['src/*#/no such text/'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Pattern /no such text/ not found in any of the 3 files of src/*#/no such text/\n',
    });
    expect(refcat(['src/*.py#/no such text/']).stderr).toBe('Error: Pattern /no such text/ not found in the one file of src/*.py#/no such text/\n');
  });

  it('a glob matching only ignored files says so; a glob naming an ignored folder gets it', () => {
    expect(refcat(['*.log'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Glob matched no files: *.log\n  1 ignored file(s) match (.gitignore, node_modules/, .git/): use --no-ignore to include them\n',
    });
    expect(refcat(['build/*.txt', 'node_modules/dep/*.js', '--spec']).stdout).toBe('@build/out.txt\n@node_modules/dep/index.js\n');
  });

  it('--list-files honours --absolute and --json', () => {
    expect(refcat(['src/*.py', '--list-files', '--absolute']).stdout).toBe(`${BASIC}/src/app.py\n`);
    const json = JSON.parse(refcat(['src/*.py', '@nope.txt', '--list-files', '--json']).stdout);
    expect(json).toEqual({
      version: 1,
      files: ['src/app.py'],
      errors: [expect.objectContaining({ code: 'not_found', ref: '@nope.txt' })],
      warnings: [],
    });
  });

  it.each([
    [['--validate-only', '--spec'], '--validate-only prints its own report: it combines with --json, not with --format spec'],
    [['--list-files', '-q'], '--list-files prints its own report: it combines with --json, not with --format raw'],
    [['--list-files', '--validate-only'], 'Use only one of --validate-only and --list-files'],
  ])('refuses report flags with other formats %j', (flags, message) => {
    expect(refcat(['@lines.txt', ...flags])).toEqual({ code: 2, stdout: '', stderr: `Error: ${message}\n` });
  });

  it('--list-files lists what extraction would print: a pattern keeps the files where it matches, failures are errors', () => {
    expect(refcat(['src/*#/class /', '--list-files'])).toEqual({ code: 0, stdout: 'src/Widget.java\nsrc/app.py\nsrc/app.ts\n', stderr: '' });
    expect(refcat(['src/*#/def /', '--list-files'])).toEqual({ code: 0, stdout: 'src/app.py\n', stderr: '' });
    expect(refcat(['@lines.txt#/zzz/', '@src', '@lines.txt', '--list-files'])).toEqual({
      code: 1,
      stdout: 'lines.txt\n',
      stderr: 'Error: Pattern /zzz/ not found in @lines.txt#/zzz/\nError: Is a directory: @src\n  A glob reads the files in it: @src/**\n',
    });
  });

  it('--list-files prints the files refs expand to', () => {
    const r = refcat(['src/*', '@lines.txt', '--list-files']);
    expect(r).toEqual({ code: 0, stdout: 'src/Widget.java\nsrc/app.py\nsrc/app.ts\nlines.txt\n', stderr: '' });
  });

  it('names the concrete file in per-file messages', () => {
    const r = refcat(['src/*.py#L30-L40', '-q']);
    expect(r.stderr).toBe(
      'Warning: REFCAT line range exceeds file bounds: @src/app.py#L30-L40\n  File has 32 lines, will clamp to L30-L32\n',
    );
    expect(r.code).toBe(0);
  });
});

describe('diagnostics', () => {
  it('come in the order of the refs, warnings and errors interleaved', () => {
    const r = refcat(['@lines.txt#L1-L999', '@nope.txt', '@lines.txt#L2', '@lines.txt#L500', '-q']);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').length).toBe(202);
    expect(r.stderr).toBe(
      [
        'Warning: REFCAT line range exceeds file bounds: @lines.txt#L1-L999',
        '  File has 200 lines, will clamp to L1-L200',
        'Error: REFCAT ref not found: @nope.txt',
        `  Searched: ${path.join(BASIC, 'nope.txt')}`,
        'Warning: REFCAT line range exceeds file bounds: @lines.txt#L500',
        '  File has 200 lines, nothing left to select',
        '',
      ].join('\n'),
    );
  });
});

describe('aliases', () => {
  const project = path.join(WORKSPACE, 'project');

  it('extracts through a workspace.lock.json alias', () => {
    const r = refcat(['loop:Sources/A.swift#L3-L6'], { cwd: project });
    expect(r.stdout).toBe(
      [
        `## From: loop:Sources/A.swift:3-6 (relative to ${path.join(WORKSPACE, 'externals', 'LoopWorkspace')})`,
        '```swift',
        '3 | struct Dose {',
        '4 |     let units: Double',
        '5 |     let date: Date',
        '6 | }',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('--alias overrides the lockfile', () => {
    const r = refcat(['loop:lines.txt#L1', '--alias', `loop=${BASIC}`, '--spec'], { cwd: project });
    expect(r).toEqual({ code: 0, stdout: 'loop:lines.txt#L1\n', stderr: '' });
  });

  it('lists aliases with target and source', () => {
    const home = homeWithAliasYaml('aliases:\n  trio: ~/src/Trio\n  loop: /elsewhere\n');
    const r = refcat(['aliases', '--alias', 'mine=/tmp/mine'], { cwd: project, home });
    const lock = path.join(WORKSPACE, 'workspace.lock.json');
    const ext = path.join(WORKSPACE, 'externals');
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split(/\s{2,}/));
    expect(rows).toEqual([
      ['mine', '/tmp/mine', '--alias'],
      ['loop', `${ext}/LoopWorkspace`, lock],
      ['LoopWorkspace', `${ext}/LoopWorkspace`, lock],
      ['crm', `${ext}/cgm-remote-monitor`, lock],
      ['ns', `${ext}/cgm-remote-monitor`, lock],
      ['cgm-remote-monitor', `${ext}/cgm-remote-monitor`, lock],
      ['trio', '~/src/Trio', '~/.sdqctl/aliases.yaml'],
      ['loop', '/elsewhere', '~/.sdqctl/aliases.yaml (shadowed)'],
    ]);
    const json = JSON.parse(refcat(['aliases', '--json'], { cwd: project, home }).stdout);
    expect(json.version).toBe(1);
    expect(json.errors).toEqual([]);
    expect(json.aliases[0]).toEqual({
      name: 'loop',
      target: `${ext}/LoopWorkspace`,
      source: 'workspace',
      origin: lock,
      shadowed: false,
    });
  });
});

describe('refcat aliases with a malformed file', () => {
  it('lists the aliases of the other sources and reports the file, exit 1', () => {
    const home = homeWithAliasYaml('aliases: [\n');
    const r = refcat(['aliases', '--alias', 'mine=/tmp/mine'], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('mine  /tmp/mine  --alias\n');
    expect(r.stderr).toMatch(/^Error: Invalid config file ~\/\.sdqctl\/aliases\.yaml: not valid YAML \(.+\)\n$/);
    const json = refcat(['aliases', '--json'], { home });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ version: 1, aliases: [], errors: [expect.objectContaining({ code: 'invalid_config' })] });
  });

  it('a malformed workspace.lock.json: the global aliases are listed, the lockfile named in one line, exit 1', () => {
    const home = homeWithAliasYaml('aliases:\n  loop: /elsewhere\n');
    const dir = tmpDir({ 'workspace.lock.json': '{nope' });
    const r = refcat(['aliases'], { cwd: dir, home });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('loop  /elsewhere  ~/.sdqctl/aliases.yaml\n');
    expect(r.stderr).toMatch(new RegExp(`^Error: Invalid config file ${dir}/workspace\\.lock\\.json: not valid JSON \\(.+\\)\n$`));
  });
});

describe('README', () => {
  it('its first example prints what the README shows (a ref into this repository)', () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const block = /````console\n\$ npx refcat '([^']+)'\n([\s\S]*?)````/.exec(readme);
    expect(block).not.toBeNull();
    const [, ref, shown] = block!;
    const r = refcat([ref!], { cwd: REPO });
    expect(r).toEqual({ code: 0, stdout: shown!.replace('/home/me/refcat', REPO), stderr: '' });
  });

  it('its quick-start ref resolves to a function by name, with its doc comment', () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const ref = /npm install && npx refcat '([^']+)'/.exec(readme)?.[1];
    expect(ref).toBeDefined();
    const r = refcat([ref!, '-q'], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\/\*\*\n[\s\S]*?\*\/\nexport function parseRef\([\s\S]*\n}\n$/);
  });

  it('the refs in the docs into this repository resolve, and the docs link only to pages that exist', () => {
    const r = refcat(['verify', 'refs', 'README.md', 'CONTRIBUTING.md', 'docs', '--strict'], { cwd: REPO });
    expect(r.stdout).toMatch(/^✓ PASSED: Scanned \d+ file\(s\), found [1-9]\d* reference\(s\)/);
    expect(r.code).toBe(0);
    for (const doc of ['README.md', 'CONTRIBUTING.md', ...fs.readdirSync(path.join(REPO, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
      const text = fs.readFileSync(path.join(REPO, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!) || target!.startsWith('@')) continue; // URLs; ref syntax examples
        expect(fs.existsSync(path.join(REPO, path.dirname(doc), target!)), `${doc} links to ${target}`).toBe(true);
      }
    }
  });

  it('stays a short entrance (at most 12 KB)', () => {
    expect(fs.statSync(path.join(REPO, 'README.md')).size).toBeLessThanOrEqual(12 * 1024);
  });
});

describe('a glob written to a file and to a pipe (process.stdout as Node sets it up)', () => {
  // The CLI writes many chunks at once: writev to a file (more pieces than one call takes: libuv
  // writes at most IOV_MAX, 1,024, and the rest follows), corked writes to a pipe. Both give exactly what the in-process run prints.
  it('gives the same bytes both ways, as the in-process run', { timeout: 120_000 }, async () => {
    const files: Record<string, string> = {};
    // Most files of one short line: a 64 KiB flush then holds over 1,024 pieces.
    for (let i = 0; i < 3000; i++) files[`src/d${i % 7}/f${i}.ts`] = `export const v${i} = '${'é😀`'.repeat(i % 5)}';\n`.repeat(i % 10 === 0 ? 40 : 1);
    const dir = tmpDir(files);
    const out = path.join(tmpDir(), 'out.md');
    const fd = fs.openSync(out, 'w');
    try {
      execFileSync(process.execPath, [BIN, 'src/**/*.ts'], { cwd: dir, env: { ...process.env, HOME: freshHome(), NO_COLOR: '1' }, stdio: ['ignore', fd, 'pipe'] });
    } finally {
      fs.closeSync(fd);
    }
    const piped = refcat(['src/**/*.ts'], { cwd: dir });
    const inProcess = await refcatInProcess(['src/**/*.ts'], { cwd: dir });
    expect(piped.code).toBe(0);
    expect(inProcess.stdout.length).toBeGreaterThan(100_000);
    expect(piped.stdout).toBe(inProcess.stdout);
    expect(fs.readFileSync(out, 'utf8')).toBe(inProcess.stdout);
  });
});
