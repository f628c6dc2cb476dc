import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { WorkflowParts } from '../../src/core/workflow/workflow-parts.js';

// docs/workflows.md#parts-included-files: a file another workflow INCLUDEs relies on that workflow
// (its ALIAS, its PROMPT), so it is checked as part of it, also when only the part is named.
const MAIN = 'ALIAS loop=../loop\nINCLUDE ../parts/part.conv\nPROMPT go\n';
const PART = 'REFCAT loop:Sources/A.swift#L1-L2\n';
const workspace = (main = MAIN, part = PART) =>
  tmpDir({ 'flows/main.conv': main, 'parts/part.conv': part, 'loop/Sources/A.swift': 'let a = 1\nlet b = 2\n' });

describe('validate: a part is checked as part of the workflow that INCLUDEs it', () => {
  it('the folder: one report, the workflow with its part, exit 0', async () => {
    const r = await refcatInProcess(['validate', '.'], { cwd: workspace() });
    expect(r).toEqual({ code: 0, stdout: '✓ flows/main.conv: valid\n  parts/part.conv: checked as part of flows/main.conv\n', stderr: '' });
  });

  it('only the part named: its includer is found and validated', async () => {
    const r = await refcatInProcess(['validate', 'parts/part.conv'], { cwd: workspace() });
    expect(r).toEqual({ code: 0, stdout: '✓ flows/main.conv: valid\n  parts/part.conv: checked as part of flows/main.conv\n', stderr: '' });
  });

  it('only the part named, from a subfolder: the scope is the working directory outside git', async () => {
    const dir = workspace();
    const r = await refcatInProcess(['validate', '../parts/part.conv'], { cwd: path.join(dir, 'flows') });
    // flows/ is the cwd; the part is outside it and outside git, so its own folder is searched.
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Unknown REFCAT alias: 'loop'");
  });

  it('only the part named, in a git repository: the whole working tree is searched, whatever the cwd', async () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, '.git'));
    const r = await refcatInProcess(['validate', '../parts/part.conv'], { cwd: path.join(dir, 'flows') });
    expect(r).toEqual({ code: 0, stdout: `✓ main.conv: valid\n  ${dir}/parts/part.conv: checked as part of main.conv\n`, stderr: '' });
  });

  it('the workflow broken: the part fails with it, in one report that names the broken line', async () => {
    const r = await refcatInProcess(['validate', 'parts/part.conv'], { cwd: workspace(MAIN.replace('PROMPT go\n', '')) });
    expect(r).toEqual({
      code: 1,
      stdout: '✗ flows/main.conv: 1 error\n  parts/part.conv: checked as part of flows/main.conv\n',
      stderr: 'Error: No PROMPT directives found\n  at flows/main.conv\n',
    });
  });

  it("the part's own ref broken: reported at the part's line", async () => {
    const r = await refcatInProcess(['validate', 'parts/part.conv'], { cwd: workspace(MAIN, 'REFCAT loop:Sources/Gone.swift\n') });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/REFCAT ref not found: loop:Sources\/Gone\.swift\n(?:.*\n)*  at parts\/part\.conv:1\n/);
  });

  it('--json names the parts of each workflow', async () => {
    const r = await refcatInProcess(['validate', 'parts/part.conv', '--json'], { cwd: workspace() });
    expect(JSON.parse(r.stdout).files).toEqual([{ path: 'flows/main.conv', valid: true, errors: [], warnings: [], parts: ['parts/part.conv'] }]);
  });

  it('a part two workflows INCLUDE is checked as part of each', async () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'flows/other.conv'), 'INCLUDE ../parts/part.conv\nPROMPT go\n');
    const r = await refcatInProcess(['validate', 'parts/part.conv'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      '✓ flows/main.conv: valid\n  parts/part.conv: checked as part of flows/main.conv\n' +
        '✗ flows/other.conv: 1 error\n  parts/part.conv: checked as part of flows/other.conv\n',
    );
  });

  it('a workflow in a folder .sdqctlignore keeps out is no includer: the part stands alone', async () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, '.sdqctlignore'), 'flows/\n');
    const r = await refcatInProcess(['validate', 'parts/part.conv'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('✗ parts/part.conv: 2 errors\n');
  });
});

describe('verify refs: a part named alone is checked through its includer', () => {
  it('the ALIAS of the includer resolves the part\'s refs', async () => {
    const r = await refcatInProcess(['verify', 'refs', 'parts/part.conv'], { cwd: workspace() });
    expect(r).toEqual({ code: 0, stdout: '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken\n', stderr: '' });
  });

  it("the includer's own refs are not checked when only the part is named", async () => {
    const r = await refcatInProcess(['verify', 'refs', 'parts/part.conv'], { cwd: workspace(MAIN + 'REFCAT @gone.md\n') });
    expect(r.code).toBe(0);
  });

  it('a broken ref of the part fails, at the part', async () => {
    const r = await refcatInProcess(['verify', 'refs', 'parts/part.conv'], { cwd: workspace(MAIN, 'REFCAT loop:Sources/Gone.swift\n') });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ERROR parts/part.conv:1: Broken reference: loop:Sources/Gone.swift');
  });
});

describe('WorkflowParts', () => {
  it('finds the top-level includers through a chain of parts, and none for a cycle', () => {
    const dir = tmpDir({
      'a.conv': 'INCLUDE mid.conv\nPROMPT a\n',
      'mid.conv': 'INCLUDE leaf.conv\n',
      'leaf.conv': 'PROMPT leaf\n',
      'x.conv': 'INCLUDE y.conv\n',
      'y.conv': 'INCLUDE x.conv\n',
    });
    const parts = new WorkflowParts(testCtx(dir));
    const at = (f: string) => path.join(dir, f);
    expect(parts.includersOf(at('leaf.conv'))).toEqual([at('a.conv')]);
    expect(parts.includersOf(at('mid.conv'))).toEqual([at('a.conv')]);
    expect(parts.includersOf(at('a.conv'))).toEqual([]);
    expect(parts.includersOf(at('x.conv'))).toEqual([]);
  });
});

describe('refcat mcp validate: the same pipeline as the CLI', () => {
  it('a part named alone is validated through its includer', async () => {
    const { runTool, TOOLS } = await import('../../src/core/agents/mcp-tools.js');
    const dir = workspace();
    const agent = { ctx: testCtx(dir), store: path.join(dir, '.store') };
    const r = await runTool(TOOLS.find((t) => t.name === 'validate')!, { paths: ['parts/part.conv'] }, agent);
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.text).files).toEqual([{ path: 'flows/main.conv', valid: true, errors: [], warnings: [], parts: ['parts/part.conv'] }]);
  });
});
