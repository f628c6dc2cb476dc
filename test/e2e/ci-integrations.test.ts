import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { BIN, REPO } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

interface Step {
  name: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
}

const action = YAML.parse(fs.readFileSync(path.join(REPO, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default: string }>;
  runs: { using: string; steps: Step[] };
};
const hooks = YAML.parse(fs.readFileSync(path.join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as {
  id: string;
  entry: string;
  files: string;
}[];

const project = {
  'flows/good.conv': 'MODEL gpt-4\nREFCAT @../src/a.py#L1\nPROMPT hi\n',
  'flows/bad.conv': 'MODEL gpt-4\nREFCAT @../src/missing.py\nPROMPT hi\n',
  'docs/notes.md': 'See @src/a.py#L1-L2 and @src/gone.py.\n',
  'src/a.py': 'x = 1\ny = 2\n',
};

/** `${{ inputs.x }}` as the runner substitutes it. */
function substitute(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => inputs[name] ?? '');
}

/** Run the action's steps as the runner would: bash, in the workspace, GITHUB_ACTION_PATH set. */
function runAction(actionPath: string, workspace: string, given: Record<string, string>, steps: Step[]) {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default]));
  let last = { status: 0 as number | null, stdout: '', stderr: '' };
  for (const step of steps) {
    expect(step.shell).toBe('bash');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, inputs)]));
    const r = spawnSync('bash', ['-e', '-c', substitute(step.run, inputs)], {
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: tmpDir(), GITHUB_ACTION_PATH: actionPath, npm_config_prefer_offline: 'true', ...env },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    last = { status: r.status, stdout: r.stdout, stderr: r.stderr };
    if (r.status !== 0) break;
  }
  return last;
}

describe('action.yml (composite GitHub Action)', () => {
  it('is a composite action whose steps use bash', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.map((s) => s.name)).toEqual(['Install refcat from the action\'s own checkout', 'Run refcat']);
  });

  it.each([
    [
      'validate',
      { command: 'validate', paths: 'flows' },
      1,
      ['::error file=flows/bad.conv,line=2::REFCAT ref not found: @../src/missing.py', '✓ flows/good.conv: valid'],
    ],
    ['validate with a glob the shell must not expand', { command: 'validate', paths: 'flows/g*.conv' }, 0, ['✓ flows/good.conv: valid']],
    ['verify-refs', { command: 'verify-refs', paths: 'docs' }, 1, ['::error file=docs/notes.md,line=1::Broken reference: @src/gone.py']],
    ['an unknown command', { command: 'lint' }, 2, ["::error::refcat: the command input must be validate or verify-refs, not 'lint'"]],
  ])('its run step: %s', (_name, inputs, code, lines) => {
    const workspace = tmpDir(project);
    const run = action.runs.steps.filter((s) => s.name === 'Run refcat');
    const r = runAction(REPO, workspace, inputs, run);
    expect(r.status).toBe(code);
    for (const line of lines) expect(r.stdout).toContain(line);
  });

  it('its install step builds the action from its own checkout', () => {
    // A copy of the checkout as `uses:` fetches it: sources, build script and lockfile, no node_modules or dist.
    const copy = tmpDir();
    for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'bin', 'src']) {
      fs.cpSync(path.join(REPO, entry), path.join(copy, entry), { recursive: true });
    }
    const workspace = tmpDir(project);
    const r = runAction(copy, workspace, { command: 'validate', paths: 'flows/good.conv' }, action.runs.steps);
    expect(r.stderr).not.toMatch(/ERR!/);
    expect([r.status, r.stdout]).toEqual([0, '✓ flows/good.conv: valid\n']);
  }, 300_000);
});

describe('.pre-commit-hooks.yaml', () => {
  /** `refcat` on PATH, as pre-commit's node environment provides it. */
  function pathWithRefcat(): string {
    const bin = tmpDir();
    fs.writeFileSync(path.join(bin, 'refcat'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    return `${bin}${path.delimiter}${process.env.PATH}`;
  }

  it.each([
    ['refcat-validate', 1, '✗ flows/bad.conv: 1 error'],
    ['refcat-verify-refs', 1, 'Broken reference: @src/gone.py'],
  ])('%s runs its entry on the files its pattern selects', (id, code, expected) => {
    const hook = hooks.find((h) => h.id === id)!;
    const workspace = tmpDir(project);
    const files = Object.keys(project).filter((f) => new RegExp(hook.files).test(f));
    expect(files.length).toBeGreaterThan(0);
    const r = spawnSync('bash', ['-c', `${hook.entry} "$@"`, 'hook', ...files], {
      cwd: workspace,
      env: { PATH: pathWithRefcat(), HOME: tmpDir(), NO_COLOR: '1' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(code);
    expect(r.stdout + r.stderr).toContain(expected);
  });

  it.each(['refcat-validate', 'refcat-verify-refs'])('%s keeps out what ./.sdqctlignore lists, though pre-commit names the files', (id) => {
    const hook = hooks.find((h) => h.id === id)!;
    // The project's bad files moved under an ignored folder: the commit touches only those.
    const workspace = tmpDir({ '.sdqctlignore': 'fixtures/\n', 'fixtures/bad.conv': 'PROMPT x\nMODEL\n', 'fixtures/bad.md': 'See @src/gone.py#L1\n' });
    const files = ['fixtures/bad.conv', 'fixtures/bad.md'].filter((f) => new RegExp(hook.files).test(f));
    const r = spawnSync('bash', ['-c', `${hook.entry} "$@"`, 'hook', ...files], {
      cwd: workspace,
      env: { PATH: pathWithRefcat(), HOME: tmpDir(), NO_COLOR: '1' },
      encoding: 'utf8',
    });
    const n = files.length === 1 ? '1 file' : `${files.length} files`;
    expect([r.status, r.stderr]).toEqual([0, `Skipped ${n} that .sdqctlignore lists (named, but --skip-ignored)\n`]);
  });
});
