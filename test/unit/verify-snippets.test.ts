import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

const SWIFT = `import Foundation

enum RemoteType: String, Codable {
    case none = "None"
    case trc = "Trio Remote Control"
    case loopAPNS = "Loop APNS"
}

func check() {
    if globalSnooze { return }
    fire()
}
`;

const fence = (info: string, ...lines: string[]) => ['```' + info, ...lines, '```'].join('\n');

function project(doc: string, extra: Record<string, string> = {}) {
  return tmpDir({ 'src/remote.swift': SWIFT, 'docs/remote.md': doc, ...extra });
}

describe('verify refs judges cited snippets', () => {
  const doc = [
    '# Remote',
    '',
    fence('swift', '// @src/remote.swift#L3-L7', 'enum RemoteType: String, Codable {', '    case none = "None"', '    case nightscout = "Nightscout"', '    case trc = "Trio Remote Control"', '}'),
    '',
    '**Source**: `@src/remote.swift#L9-L12`',
    '',
    fence('swift', 'func check() {', '    // ...', '    fire()', '}'),
    '',
    fence('swift', '// @src/remote.swift#L1-L4', 'func check() {', '    if globalSnooze { return }', '    fire()', '}'),
    '',
    '1. In a list item:',
    '',
    '   ' + fence('swift', '// @src/remote.swift#L9-L12', 'func check() {', '    if globalSnooze { return }', '    fire()', '}').replace(/\n/g, '\n   '),
    '',
  ].join('\n');

  it('text: a summary with the snippet counts and one STALE line per stale snippet; exit 1', async () => {
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: project(doc) });
    expect(r).toEqual({
      code: 1,
      stdout: [
        '✗ FAILED: Scanned 1 file(s), found 4 reference(s): 4 valid, 0 broken; snippets: 1 verbatim, 1 excerpt, 2 stale',
        '  STALE docs/remote.md:4: snippet differs from @src/remote.swift#L3-L7: 1 of 5 lines not in the code: case nightscout = "Nightscout"',
        '  STALE docs/remote.md:22: snippet differs from @src/remote.swift#L1-L4: 4 of 4 lines not in the code: func check() { | if globalSnooze { return } | fire(); now at @src/remote.swift#L9-L12',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('--json: the snippets object, one entry per citation', async () => {
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: project(doc) });
    const json = JSON.parse(r.stdout);
    expect(json.passed).toBe(false);
    expect(json.snippets).toEqual({
      verbatim: 1,
      excerpt: 1,
      stale: 2,
      refs: [
        { file: 'docs/remote.md', line: 4, fence_line: 3, ref: '@src/remote.swift#L3-L7', form: 'in-fence', status: 'stale', snippet_lines: 5, missing: 1, missing_lines: ['case nightscout = "Nightscout"'], now_at: null },
        { file: 'docs/remote.md', line: 12, fence_line: 14, ref: '@src/remote.swift#L9-L12', form: 'caption', status: 'excerpt', snippet_lines: 3, missing: 0, missing_lines: [], now_at: null },
        {
          file: 'docs/remote.md',
          line: 22,
          fence_line: 21,
          ref: '@src/remote.swift#L1-L4',
          form: 'in-fence',
          status: 'stale',
          snippet_lines: 4,
          missing: 4,
          missing_lines: ['func check() {', 'if globalSnooze { return }', 'fire()'],
          now_at: '@src/remote.swift#L9-L12',
        },
        { file: 'docs/remote.md', line: 32, fence_line: 31, ref: '@src/remote.swift#L9-L12', form: 'in-fence', status: 'verbatim', snippet_lines: 4, missing: 0, missing_lines: [], now_at: null },
      ],
    });
  });

  it('--format github: a stale snippet is an error annotation at the ref', async () => {
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--format', 'github'], { cwd: project(doc) });
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::error file=docs/remote.md,line=4::Stale snippet: snippet differs from @src/remote.swift#L3-L7: 1 of 5 lines not in the code: case nightscout = "Nightscout"',
      '::error file=docs/remote.md,line=22::Stale snippet: snippet differs from @src/remote.swift#L1-L4: 4 of 4 lines not in the code: func check() { | if globalSnooze { return } | fire(); now at @src/remote.swift#L9-L12',
    ]);
  });

  it('--no-snippets: the refs are checked, the lines are not', async () => {
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--no-snippets', '--json'], { cwd: project(doc) });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ passed: true, refs_found: 4, valid: 4 });
    expect(json.snippets).toBeUndefined();
  });

  it('every snippet true: exit 0, the counts in the summary', async () => {
    const good = fence('swift', '// @src/remote.swift#L9-L12', 'func check() {', '  if globalSnooze { return }', '  fire()', '}');
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: project(good) });
    expect(r).toMatchObject({ code: 0, stdout: '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken; snippets: 1 verbatim, 0 excerpt, 0 stale\n' });
  });

  it('a citation whose ref is broken is an error with no snippet verdict; a clamped one is judged', async () => {
    const bad = [fence('swift', '// @src/remote.swift#L90-L99', 'x'), fence('swift', '// @src/gone.swift#L1', 'y')].join('\n\n');
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: project(bad) });
    const json = JSON.parse(r.stdout);
    expect(r.code).toBe(1);
    expect(json.snippets).toMatchObject({ verbatim: 0, excerpt: 0, stale: 1, refs: [{ line: 2, status: 'stale', missing: 1 }] });
    expect(json.errors.map((e: { ref: string; line: number }) => [e.line, e.ref])).toEqual([[7, '@src/gone.swift#L1']]);
    expect(json.warnings.map((e: { ref: string; line: number }) => [e.line, e.ref])).toEqual([[2, '@src/remote.swift#L90-L99']]);
  });

  it('other refs inside a fence are examples: not checked', async () => {
    const examples = fence('md', 'Write `@src/missing.py#L1` to cite.', '// @src/nothing.swift#L1 is not first');
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: project(examples) });
    expect(r).toMatchObject({ code: 0, stdout: '✓ PASSED: Scanned 1 file(s), found 0 reference(s): 0 valid, 0 broken\n' });
  });

  it('an alias citation, as real workspaces write them', async () => {
    const dir = tmpDir({
      'externals/LoopFollow/LoopFollow/Remote/RemoteType.swift': SWIFT,
      'docs/remote.md': fence('swift', '// loopfollow:LoopFollow/Remote/RemoteType.swift#L3-L7', 'enum RemoteType: String, Codable {', 'case none = "None"', 'case nightscout = "Nightscout"', '}'),
    });
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--alias', 'loopfollow=externals/LoopFollow'], { cwd: dir });
    expect(r.stdout).toContain('STALE docs/remote.md:2: snippet differs from loopfollow:LoopFollow/Remote/RemoteType.swift#L3-L7: 1 of 4 lines not in the code: case nightscout = "Nightscout"');
  });

  it('a citation inside a verify-refs: off region is not checked', async () => {
    const off = ['<!-- verify-refs: off -->', fence('js', '// @src/missing.js#L1', 'x'), '<!-- verify-refs: on -->'].join('\n');
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: project(off) });
    expect(r.code).toBe(0);
  });

  it('a marker shown in inline code or in a fence starts no off region: the citation after it is checked', async () => {
    for (const shown of ['Use `<!-- verify-refs: off -->` to stop.', fence('html', '<!-- verify-refs: off -->')]) {
      const doc = [shown, '', fence('js', '// @src/missing.js#L1', 'x')].join('\n');
      const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: project(doc) });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('@src/missing.js#L1');
    }
  });
});

describe('embedme compatibility', () => {
  // Docs kept by embedme: bare paths in the first-line comment, relative to the doc's folder or
  // the root, an `<!-- embedme path -->` caption, and `<!-- embedme-ignore-next -->`.
  const files = {
    'docs/snippets/sample.py': "print('Hello World')\n",
    'docs/snippets/sample.sql': 'SELECT 1;\n',
    'docs/snippets/sample.json': '{\n  "hello": "world"\n}\n',
    'docs/snippets/sample.html': '<h1>Hello world</h1>\n',
    'docs/snippets/sample.puml': '@startuml\nBob -> Alice : hello\n@enduml\n',
    'docs/snippets/sample.mermaid': 'sequenceDiagram\n    Alice ->> Bob: Hello\n',
    'src/lib.ts': 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n',
    'docs/README.md': [
      'Python',
      '',
      fence('py', '# snippets/sample.py', "print('Hello World')"),
      '',
      fence('sql', '-- snippets/sample.sql', 'SELECT 1;'),
      '',
      fence('html', '<!-- snippets/sample.html -->', '<h1>Hello world</h1>'),
      '',
      fence('puml', "' snippets/sample.puml", '@startuml', 'Bob -> Alice : hello', '@enduml'),
      '',
      fence('mermaid', '%% snippets/sample.mermaid', 'sequenceDiagram', '    Alice ->> Bob: Hello'),
      '',
      '<!-- embedme snippets/sample.json -->',
      '',
      fence('json', '{', '  "hello": "world"', '}'),
      '',
      fence('ts', '// src/lib.ts#L2-L3', 'export const b = 2;', 'export const c = 99;'),
      '',
      '<!-- embedme-ignore-next -->',
      fence('ts', '// src/lib.ts#L1', 'an example that is not checked'),
      '',
      fence('js', '// server.js', 'a label over an example, not a citation'),
      '',
    ].join('\n'),
  };

  it('checks them as they are: bare paths from the root, then the doc folder', async () => {
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: tmpDir(files) });
    const json = JSON.parse(r.stdout);
    expect(json.errors).toEqual([]);
    expect(json.snippets.refs.map((e: { ref: string; status: string; form: string }) => `${e.form} ${e.ref} ${e.status}`)).toEqual([
      'in-fence snippets/sample.py verbatim',
      'in-fence snippets/sample.sql verbatim',
      'in-fence snippets/sample.html verbatim',
      'in-fence snippets/sample.puml verbatim',
      'in-fence snippets/sample.mermaid verbatim',
      'caption snippets/sample.json verbatim',
      'in-fence src/lib.ts#L2-L3 stale',
    ]);
    expect(r.code).toBe(1);
  });
});

describe('snippets are compared only with files under the root or an alias target', () => {
  it('a citation of a file elsewhere gets a warning, no verdict, and no now at', async () => {
    const outside = tmpDir({ 'secret.txt': 'root:x:0:0\nuser:x:1000\n' });
    const doc = fence('txt', `// @${outside}/secret.txt#L2`, 'root:x:0:0');
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: project(doc) });
    const json = JSON.parse(r.stdout);
    expect(json.snippets.refs).toEqual([]);
    expect(json.warnings).toEqual([expect.objectContaining({ code: 'snippet_outside', line: 2 })]);
    expect(r.stdout).not.toContain('now_at":"');
  });
});

describe('refcat mcp', () => {
  it('verify_refs returns the snippets object; extract with format cite writes a citation that reads back verbatim', async () => {
    const { runTool, TOOLS } = await import('../../src/core/agents/mcp-tools.js');
    const { testCtx } = await import('../helpers/tmp.js');
    const path = await import('node:path');
    const fs = await import('node:fs');
    const dir = project(fence('swift', '// @src/remote.swift#L3-L4', 'enum RemoteType: String, Codable {', '    case nightscout = "Nightscout"'));
    const agent = { ctx: testCtx(dir), store: path.join(dir, '.store') };
    const tool = (name: string) => TOOLS.find((t) => t.name === name)!;
    const verified = await runTool(tool('verify_refs'), { paths: ['docs'] }, agent);
    expect(verified.isError).toBe(true);
    expect(JSON.parse(verified.text).snippets).toMatchObject({ verbatim: 0, excerpt: 0, stale: 1, refs: [{ line: 2, status: 'stale', missing_lines: ['case nightscout = "Nightscout"'] }] });
    const cited = await runTool(tool('extract'), { refs: ['@src/remote.swift#L3-L4'], format: 'cite' }, agent);
    expect(cited.isError).toBe(false);
    const block = cited.text.slice(0, cited.text.lastIndexOf('```') + 3);
    fs.writeFileSync(path.join(dir, 'docs/remote.md'), block + '\n');
    const again = await runTool(tool('verify_refs'), { paths: ['docs'] }, agent);
    expect(JSON.parse(again.text).snippets).toMatchObject({ verbatim: 1, stale: 0 });
    expect(again.isError).toBe(false);
  });
});
