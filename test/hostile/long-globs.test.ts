import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentContext, runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// A glob is text anyone can put in a doc, a workflow, a .gitignore or an agent's call. One of ten
// thousand braces overflowed the stack (one frame a brace), and one past 65,536 characters made
// picomatch throw: both were `internal error`s in every command that walks
// (docs/reference.md#limits-and-hostile-input).

const braces = (n: number) => '{a,b}'.repeat(n);
const workflow = (body: string) => `MODEL gpt-4\n${body}\nPROMPT hi\n`;
const tooLong = /^Error: Glob too long: 50000 characters \(at most 4096\): \{a,b\}\{a,b\}.{20,40}\.\.\.$/m;

describe('a glob longer than 4096 characters', () => {
  it('a glob ref: one line, exit 1', async () => {
    const dir = tmpDir({ 'a.md': 'x\n' });
    const r = await refcatInProcess(['--list-files', `@${braces(10000)}`, '@a.md'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(tooLong);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stdout).toBe('a.md\n');
  });

  it('a .gitignore rule: holds no rule, and the walk goes on', async () => {
    const dir = tmpDir({ 'a.md': 'x\n', 'b.md': 'x\n', '.gitignore': `${braces(10000)}\nb.md\n` });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const r = await refcatInProcess(['--list-files', '*.md'], { cwd: dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'a.md\n', '']);
  });

  it('CONTEXT and CONTEXT-EXCLUDE: an error at the line, the rest of the workflow checked', async () => {
    const dir = tmpDir({ 'a.md': 'x\n', 'flow.conv': workflow(`CONTEXT-EXCLUDE @${braces(10000)}\nCONTEXT @${braces(10000)}\nCONTEXT @a.md\nREFCAT @missing.md`) });
    const r = await refcatInProcess(['validate', 'flow.conv'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr.match(/Glob too long/g)).toHaveLength(2);
    expect(r.stderr).toContain('at flow.conv:2');
    expect(r.stderr).toContain('at flow.conv:3');
    expect(r.stderr).toContain('REFCAT ref not found: @missing.md');
    expect(r.stderr).not.toContain('internal error');
  });

  it('-e/--exclude: a usage error', async () => {
    const dir = tmpDir({ 'a.md': 'x\n' });
    const r = await refcatInProcess(['verify', 'refs', '.', '-e', braces(10000)], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([2, 'Error: --exclude: glob too long: 50000 characters (at most 4093)\n']);
  });

  it("MCP verify_refs's exclude: an error for that call, naming the tool's argument", async () => {
    const dir = tmpDir({ 'a.md': 'x\n' });
    const agent: AgentContext = { ctx: testCtx(dir), store: path.join(dir, 'store') };
    const answer = await runTool(TOOLS.find((t) => t.name === 'verify_refs')!, { paths: ['.'], exclude: [braces(10000)] }, agent);
    expect(answer).toEqual({ text: 'Error: exclude: glob too long: 50000 characters (at most 4093)\n', isError: true });
  });

  it('globs of many braces under the limit are matched as before', async () => {
    const dir = tmpDir({ 'ab.md': 'x\n' });
    const r = await refcatInProcess(['--list-files', `@${'{a,b}'.repeat(2)}.md`, `@${'{a}'.repeat(800)}x`], { cwd: dir });
    expect(r.stdout).toBe('ab.md\n');
    expect(r.stderr).not.toContain('internal error');
  });
});
