import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentContext, runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// The rule (docs/reference.md#limits-and-hostile-input): a message quotes a line of a file only when
// the file is under the root or the target of an alias defined outside the root; through MCP, a
// ref inside a workflow or doc to any other file is refused before that file is looked at, so the
// answer is the same whatever the file holds, or whether it exists at all.

const SECRET = 'root:x:0:0:TOPSECRET';
const NOT_DECL = 'does not look like a function declaration';

/** top/root is the root (cwd); top/outside holds the secret; top/lib is a trusted alias target. */
function setup() {
  const top = tmpDir({
    'outside/secret.txt': `${SECRET}\n`,
    'lib/lib.txt': 'root:x:lib-line\n',
    'home/.sdqctl/aliases.yaml': '',
    'root/inside.txt': 'root:x:inside-line\n',
  });
  const root = path.join(top, 'root');
  const secret = path.join(top, 'outside', 'secret.txt');
  fs.writeFileSync(path.join(top, 'home/.sdqctl/aliases.yaml'), `aliases:\n  lib: ${path.join(top, 'lib')}\n`);
  fs.symlinkSync(path.join(top, 'outside'), path.join(root, 'link'));
  const env = { SDQCTL_HOME: path.join(top, 'home/.sdqctl') };
  return { top, root, secret, env };
}

const flow = (...refs: string[]) => `MODEL gpt-4\n${refs.map((r) => `REFCAT ${r}`).join('\n')}\nPROMPT go\n`;

describe('the CLI quotes lines only from files under the root or an alias target', () => {
  // [entry point, files to write under the root (SECRET_PATH is the outside file), argv]
  const table: [string, Record<string, string>, string[]][] = [
    ['validate (text)', { 'flow.conv': flow('@SECRET_PATH#/^root/:function') }, ['validate', 'flow.conv']],
    ['validate --format json', { 'flow.conv': flow('@SECRET_PATH#/^root/:function') }, ['validate', 'flow.conv', '--format', 'json']],
    ['validate --format github', { 'flow.conv': flow('@SECRET_PATH#/^root/:function') }, ['validate', 'flow.conv', '--format', 'github']],
    ['validate, through a symlink', { 'flow.conv': flow('@link/secret.txt#/^root/:function') }, ['validate', 'flow.conv', '--format', 'github']],
    ['validate, ALIAS in the workflow', { 'flow.conv': `ALIAS out=../outside\n${flow('out:secret.txt#/^root/:function')}` }, ['validate', 'flow.conv']],
    [
      'validate, alias of a lockfile under the root',
      { 'workspace.lock.json': '{"externals_dir": "..", "repos": [{"alias": "out", "name": "outside"}]}', 'flow.conv': flow('out:secret.txt#/^root/:function') },
      ['validate', 'flow.conv', '--format', 'github'],
    ],
    ['verify refs (text)', { 'doc.md': 'See @SECRET_PATH#/^root/:function here.\n' }, ['verify', 'refs', 'doc.md']],
    ['verify refs --format json', { 'doc.md': 'See @SECRET_PATH#/^root/:function here.\n' }, ['verify', 'refs', 'doc.md', '--format', 'json']],
    ['verify refs --format github', { 'doc.md': 'See @link/secret.txt#/^root/:function here.\n' }, ['verify', 'refs', 'doc.md', '--format', 'github']],
    ['verify refs --drift', { 'doc.md': 'See @SECRET_PATH#/^root/:function here.\n' }, ['verify', 'refs', 'doc.md', '--drift', '--format', 'github']],
    ['verify refs, a workflow', { 'flow.conv': flow('@SECRET_PATH#/^root/:function') }, ['verify', 'refs', 'flow.conv']],
    ['extract', {}, ['@SECRET_PATH#/^root/:function']],
    ['extract --json', {}, ['@link/secret.txt#/^root/:function', '--json']],
    ['extract --from-workflow', { 'flow.conv': flow('@SECRET_PATH#/^root/:function') }, ['--from-workflow', 'flow.conv']],
  ];

  it.each(table)('%s', async (_name, files, argv) => {
    const { root, secret, env } = setup();
    for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text.replaceAll('SECRET_PATH', secret));
    const r = await refcatInProcess(
      argv.map((a) => a.replaceAll('SECRET_PATH', secret)),
      { cwd: root, env },
    );
    expect(r.stdout + r.stderr).toContain(NOT_DECL);
    expect(r.stdout + r.stderr).not.toContain('TOPSECRET');
    expect(r.code).toBe(1);
  });

  it.each([
    ['a file under the root', '@inside.txt#/^root/:function', 'root:x:inside-line'],
    ['a target of an alias defined outside the root', 'lib:lib.txt#/^root/:function', 'root:x:lib-line'],
  ])('%s is quoted', async (_name, ref, line) => {
    const { root, env } = setup();
    fs.writeFileSync(path.join(root, 'flow.conv'), flow(ref));
    const r = await refcatInProcess(['validate', 'flow.conv', '--format', 'github'], { cwd: root, env });
    expect(r.stdout).toContain(`${NOT_DECL}: ${line}`);
  });
});

describe('refcat mcp refuses refs inside workflows and docs that lead outside, whatever the file holds', () => {
  const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

  // [tool, files under the root, arguments]
  const table: [string, Record<string, string>, Record<string, unknown>][] = [
    ['validate', { 'flow.conv': flow('@SECRET_PATH#/^root/:function') }, { paths: ['flow.conv'] }],
    ['validate', { 'flow.conv': flow('@link/secret.txt#/^root/:function') }, { paths: ['flow.conv'] }],
    ['validate', { 'flow.conv': `ALIAS out=../outside\n${flow('out:secret.txt#/^root/:function')}` }, { paths: ['flow.conv'] }],
    ['validate', { 'flow.conv': `MODEL gpt-4\nCONTEXT @link/*.txt\nREQUIRE @SECRET_PATH\nPROMPT go\n` }, { paths: ['flow.conv'] }],
    ['validate', { 'flow.conv': `MODEL gpt-4\nCONTEXT @SECRET_PATH\nPROMPT go\n` }, { paths: ['flow.conv'] }],
    ['verify_refs', { 'doc.md': 'See @SECRET_PATH#/^root/:function.\n' }, { paths: ['doc.md'] }],
    ['verify_refs', { 'doc.md': 'See @link/secret.txt#L1 and @link/*.txt#L1.\n' }, { paths: ['doc.md'], drift: true }],
    ['verify_refs', { 'flow.conv': flow('@SECRET_PATH#/^root/:function') }, { paths: ['flow.conv'], drift: true }],
    ['extract', {}, { refs: ['@link/*.txt#/^root/:function'] }],
    [
      'extract',
      { 'workspace.lock.json': '{"externals_dir": "..", "repos": [{"alias": "out", "name": "outside"}]}' },
      { refs: ['out:secret.txt#/^root/:function'] },
    ],
  ];

  /** The four answers of one call: the secret file matching, holding something else, missing, a folder. */
  async function answers(name: string, files: Record<string, string>, args: Record<string, unknown>) {
    const { root, secret, env } = setup();
    for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text.replaceAll('SECRET_PATH', secret));
    const agent: AgentContext = { ctx: testCtx(root, env), store: path.join(root, '..', 'store') };
    const call = async () => runTool(tool(name), args, agent);
    const matching = await call();
    fs.writeFileSync(secret, 'nothing to see\n');
    const notMatching = await call();
    fs.rmSync(secret);
    const missing = await call();
    fs.mkdirSync(secret);
    const folder = await call();
    return { root, matching, notMatching, missing, folder };
  }

  it.each(table)('%s %j %j', async (name, files, args) => {
    const { matching, notMatching, missing, folder } = await answers(name, files, args);
    expect(matching.text).toContain('Refused');
    expect(matching.text).not.toContain('TOPSECRET');
    expect(matching.isError).toBe(true);
    // One answer, whatever is outside: no bit leaks per call.
    expect(notMatching).toEqual(matching);
    expect(missing).toEqual(matching);
    expect(folder).toEqual(matching);
  });

  // Globs that walk to the link (root/link -> top/outside) refuse it unfollowed; the refusal names
  // the ref as written, or the link, never a name from outside. [tool, arguments, name refused]
  const globs: [string, Record<string, unknown>, string][] = [
    ['extract', { refs: ['@l?nk/*.txt#L1'] }, '@l?nk/*.txt#L1'],
    ['extract', { refs: ['@**/secret.txt'] }, '@**/secret.txt'],
    ['fd_read', { path: 'l?nk/secret.txt' }, 'l?nk/secret.txt'],
    ['fd_read', { path: '**/secret.txt#L1' }, '**/secret.txt#L1'],
    ['validate', { paths: ['l?nk/*.conv'] }, 'ROOT/link'],
  ];

  it.each(globs)('%s %j', async (name, args, refused) => {
    const { root, matching, notMatching, missing, folder } = await answers(name, {}, args);
    const shown = refused.replace('ROOT', root);
    expect(matching).toEqual({ text: `Error: Refused: ${shown} is outside the root ${root} (and every alias target)\n`, isError: true });
    for (const other of [notMatching, missing, folder]) expect(other).toEqual(matching);
  });

  it('verify_refs skips a symlink a glob walks to, naming the link, whatever it leads to', async () => {
    const { matching, notMatching, missing, folder } = await answers('verify_refs', {}, { paths: ['l?nk/*.md'] });
    expect(JSON.parse(matching.text).warnings).toEqual([expect.objectContaining({ code: 'outside_root', file: 'link' })]);
    for (const other of [notMatching, missing, folder]) expect(other).toEqual(matching);
  });

  it('a folder scan takes a wanted name leading out by its name alone: present, missing or a folder', async () => {
    const { root, secret, env } = setup();
    fs.mkdirSync(path.join(root, 'flows'));
    fs.symlinkSync(secret, path.join(root, 'flows', 'leak.conv'));
    const agent: AgentContext = { ctx: testCtx(root, env), store: path.join(root, '..', 'store') };
    const refused = { text: `Error: Refused: ${path.join(root, 'flows', 'leak.conv')} is outside the root ${root} (and every alias target)\n`, isError: true };
    expect(await runTool(tool('validate'), { paths: ['flows'] }, agent)).toEqual(refused);
    fs.rmSync(secret);
    expect(await runTool(tool('validate'), { paths: ['flows'] }, agent)).toEqual(refused);
    fs.mkdirSync(secret);
    expect(await runTool(tool('validate'), { paths: ['flows'] }, agent)).toEqual(refused);
  });

  it('a workflow written by ref_export cannot make validate quote a file outside', async () => {
    const { root, secret, env } = setup();
    const agent: AgentContext = { ctx: testCtx(root, env), store: path.join(root, '..', 'store') };
    const text = `<ref id="w">\n${flow(`@${secret}#/^root/:function`)}</ref>\n`;
    const written = await runTool(tool('ref_export'), { text, id: 'w', to: 'evil.conv' }, agent);
    expect(written.isError).toBe(false);
    const r = await runTool(tool('validate'), { paths: ['evil.conv'] }, agent);
    expect(r.text).not.toContain('TOPSECRET');
    expect(JSON.parse(r.text).files[0].errors[0].code).toBe('outside_root');
  });

  it('refs to files under the root are still checked (and quoted)', async () => {
    const { root, env } = setup();
    fs.writeFileSync(path.join(root, 'flow.conv'), flow('@inside.txt#/^root/:function', '@inside.txt#L1'));
    const agent: AgentContext = { ctx: testCtx(root, env), store: path.join(root, '..', 'store') };
    const r = await runTool(tool('validate'), { paths: ['flow.conv'] }, agent);
    const errors = JSON.parse(r.text).files[0].errors;
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain(`${NOT_DECL}: root:x:inside-line`);
  });
});
