import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentContext, runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// The rule (docs/reference.md#limits-and-hostile-input): a message quotes a line of a file only when
// the file is under the root or the target of an alias defined outside the root (validate and
// verify refs do not search a pattern in any other file); through MCP, a
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
    // The checks do not even search the pattern: whether it matches would say what the file holds.
    const check = argv[0] === 'validate' || argv[0] === 'verify';
    expect(r.stdout + r.stderr).toContain(check ? 'Pattern not checked' : NOT_DECL);
    expect(r.stdout + r.stderr).not.toContain('TOPSECRET');
    expect(r.code).toBe(check ? 0 : 1);
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

// Config and data files refcat parses may be symlinks to any file (docs/reference.md#limits-and-hostile-input):
// their messages give a line and column, never what the file holds.

/** Outside files a parser would quote a part of: a syntax error; for YAML also a key or a tag. */
const JSON_TEXTS = ['root:x:0:0:TOPSECRET\nSECRET=1\n', '{"TOPSECRET": tru}\n'];
const YAML_TEXTS = [
  ...JSON_TEXTS,
  'TOPSECRET: 1\n',
  'aliases:\n  TOPSECRET x: /a\n',
  'aliases:\n  TOPSECRET: 3\n',
  'aliases:\n  a: /a\n  TOPSECRET: /b\n  TOPSECRET: /c\n',
  'aliases: {a: !TOPSECRET x}\n',
  'aliases: "\\TOPSECRET"\n',
];

/**
 * top/root is the root, a git repository whose doc holds a changed ref; top/outside/file is the
 * outside file; top/home is the home folder. `link` is made a symlink to the outside file.
 */
function configSetup(link: string) {
  const top = tmpDir({ 'outside/file': '', 'home/.sdqctl/.keep': '' });
  const repo = GitRepo.init({ 'lib/x.js': 'one\ntwo\nthree\n', 'docs/a.md': 'See @lib/x.js#L1-L2 here\n', 'a.txt': 'a\n' }, path.join(top, 'root'));
  repo.write({ 'lib/x.js': 'ONE-edited\ntwo\nthree\n' });
  const outside = path.join(top, 'outside', 'file');
  fs.mkdirSync(path.dirname(path.join(top, link)), { recursive: true });
  fs.symlinkSync(outside, path.join(top, link));
  return { top, root: repo.dir, outside, env: { SDQCTL_HOME: path.join(top, 'home/.sdqctl') } };
}

// [the symlink (from top), argv, what the outside file holds]
const CONFIG_FILES: [string, string[], string[]][] = [
  ['root/refcat-accepted.json', ['verify', 'refs', '--drift', 'docs'], JSON_TEXTS],
  ['root/refcat-accepted.json', ['verify', 'refs', '--accept', 'docs', '--format', 'json'], JSON_TEXTS],
  ['root/workspace.lock.json', ['x:a.txt'], JSON_TEXTS],
  ['root/workspace.lock.json', ['aliases', '--json'], JSON_TEXTS],
  ['workspace.lock.json', ['validate', 'flow.conv'], JSON_TEXTS],
  ['home/.sdqctl/aliases.yaml', ['x:a.txt'], YAML_TEXTS],
  ['home/.sdqctl/aliases.yaml', ['aliases'], YAML_TEXTS],
];

describe('the CLI never quotes a config or data file, wherever it leads', () => {
  it.each(CONFIG_FILES.flatMap(([link, argv, texts]) => texts.map((text) => [link, argv, text] as const)))('%s: refcat %j, %j', async (link, argv, text) => {
    const { root, outside, env } = configSetup(link);
    fs.writeFileSync(path.join(root, 'flow.conv'), flow('x:a.txt#L1'));
    fs.writeFileSync(outside, text);
    const r = await refcatInProcess(argv, { cwd: root, env });
    // V8 quotes the first 10 characters: `"root:x:0:0"...`, `"{"TOPSECRE"...`.
    for (const bit of ['root:x', 'TOPSEC']) expect(r.stdout + r.stderr).not.toContain(bit);
    expect(r.stdout + r.stderr).toContain(`${path.basename(link)}: `);
    expect(r.code).toBe(1);
  });
});

describe('refcat mcp refuses a config or data file under the root that leads outside, whatever it leads to', () => {
  const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

  // [the symlink (from top), SDQCTL_HOME (from top), tool, arguments]
  const table: [string, string, string, Record<string, unknown>][] = [
    ['root/refcat-accepted.json', 'home/.sdqctl', 'verify_refs', { paths: ['docs'], drift: true }],
    ['root/workspace.lock.json', 'home/.sdqctl', 'aliases', {}],
    ['root/workspace.lock.json', 'home/.sdqctl', 'extract', { refs: ['x:a.txt'] }],
    ['root/workspace.lock.json', 'home/.sdqctl', 'validate', { paths: ['flow.conv'] }],
    ['root/sdq/aliases.yaml', 'root/sdq', 'aliases', {}],
    ['root/sdq/aliases.yaml', 'root/sdq', 'extract', { refs: ['x:a.txt'] }],
  ];

  it.each(table)('%s (SDQCTL_HOME %s): %s %j', async (link, sdqctlHome, name, args) => {
    const { top, root, outside } = configSetup(link);
    fs.writeFileSync(path.join(root, 'flow.conv'), flow('x:a.txt#L1'));
    const agent: AgentContext = { ctx: testCtx(root, { SDQCTL_HOME: path.join(top, sdqctlHome) }), store: path.join(top, 'store') };
    const answers = [];
    for (const text of [...YAML_TEXTS, '{"repos": [], "accepted": []}\n', 'aliases:\n  x: /\n']) {
      fs.writeFileSync(outside, text);
      answers.push(await runTool(tool(name), args, agent));
    }
    fs.rmSync(outside);
    answers.push(await runTool(tool(name), args, agent));
    fs.mkdirSync(outside);
    answers.push(await runTool(tool(name), args, agent));
    expect(answers[0]!.text).toMatch(new RegExp(`Refused: \\S*${path.basename(link)} leads outside the root ${root} \\(not read\\)`));
    expect(answers[0]!.isError).toBe(true);
    for (const a of answers) {
      for (const bit of ['root:x', 'TOPSEC']) expect(a.text).not.toContain(bit);
      // One answer, whatever is outside: no bit leaks per call.
      expect(a).toEqual(answers[0]);
    }
  });

  // [the symlink (from top), SDQCTL_HOME (from top), tool, arguments]
  const own: [string, string, string, Record<string, unknown>][] = [
    ['home/.sdqctl/aliases.yaml', 'home/.sdqctl', 'aliases', {}],
    ['home/.sdqctl/aliases.yaml', 'home/.sdqctl', 'extract', { refs: ['x:a.txt'] }],
    ['workspace.lock.json', 'home/.sdqctl', 'aliases', {}],
  ];

  it.each(own)('the user\'s own %s (SDQCTL_HOME %s) is read, and never quoted: %s %j', async (link, sdqctlHome, name, args) => {
    const { top, root, outside } = configSetup(link);
    const agent: AgentContext = { ctx: testCtx(root, { SDQCTL_HOME: path.join(top, sdqctlHome) }), store: path.join(top, 'store') };
    for (const text of link.endsWith('.json') ? JSON_TEXTS : YAML_TEXTS) {
      fs.writeFileSync(outside, text);
      const r = await runTool(tool(name), args, agent);
      for (const bit of ['root:x', 'TOPSEC']) expect(r.text).not.toContain(bit);
      expect(r.text).toContain('Invalid config file');
    }
    fs.writeFileSync(outside, link.endsWith('.json') ? '{"externals_dir": ".", "repos": [{"alias": "x", "name": "root"}]}' : `aliases:\n  x: ${root}\n`);
    expect((await runTool(tool(name), args, agent)).isError).toBe(false);
  });

  it('an alias file or accept file under the root that stays under it is read', async () => {
    const { top, root } = configSetup('root/link.json');
    fs.writeFileSync(path.join(root, 'real.json'), '{"externals_dir": "..", "repos": [{"alias": "x", "name": "root"}]}');
    fs.symlinkSync(path.join(root, 'real.json'), path.join(root, 'workspace.lock.json'));
    const agent: AgentContext = { ctx: testCtx(root, { SDQCTL_HOME: path.join(top, 'home/.sdqctl') }), store: path.join(top, 'store') };
    const r = await runTool(tool('extract'), { refs: ['x:a.txt'] }, agent);
    expect([r.isError, r.text]).toEqual([false, expect.stringContaining('## From: x:a.txt')]);
    const drift = await runTool(tool('verify_refs'), { paths: ['docs'], drift: true }, agent);
    expect(JSON.parse(drift.text).drift.changed).toBe(1);
  });
});
