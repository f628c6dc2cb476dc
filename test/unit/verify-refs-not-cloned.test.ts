import childProcess from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { loadedGrammar } from '../../src/core/symbols/grammar-loader.js';
import { symbolLanguageOf } from '../../src/core/symbols/languages.js';

// A workspace where most externals are not cloned: one error per alias folder, not one per ref
// (docs/reference.md#verify-refs), and drift says "not cloned" once per folder.

function workspace(): GitRepo {
  const lock = {
    externals_dir: 'externals',
    repos: [
      { alias: 'trio', name: 'Trio', url: 'https://github.com/nightscout/Trio.git', ref: 'dev' },
      { alias: 'lf', name: 'LoopFollow' },
      { alias: 'here', name: 'here' },
    ],
  };
  return GitRepo.init({
    'workspace.lock.json': JSON.stringify(lock, null, 2) + '\n',
    'externals/here/a.js': numbered('a', 5),
    'docs/a.md': 'trio:Trio/A.swift#L1 and trio:Trio/B.swift#L2-L3\nlf:LoopFollow/C.swift#L4\nhere:a.js#L2 and here:gone.js\n',
    'docs/b.md': 'Also trio:Trio/D.swift#L9.\n',
  });
}

describe('verify refs: refs into an alias folder that does not exist', () => {
  it('text: one ERROR per folder with the count and how to clone it; other broken refs as before', async () => {
    const repo = workspace();
    const r = await refcatInProcess(['verify', 'refs', '--drift', 'docs'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      '✗ FAILED: Scanned 2 file(s), found 6 reference(s): 1 valid, 5 broken; drift: 1 unchanged, 0 moved, 0 changed, 0 deleted, 4 unknown, 1 anchored',
      '  ERROR externals/Trio: Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json): 3 broken references into it',
      '    Clone it: git clone https://github.com/nightscout/Trio.git externals/Trio && git -C externals/Trio checkout dev',
      '  ERROR externals/LoopFollow: Not cloned: externals/LoopFollow does not exist (alias lf from workspace.lock.json): 1 broken reference into it',
      '    Clone the repository LoopFollow of workspace.lock.json into externals/LoopFollow',
      '  ERROR docs/a.md:3: Broken reference: here:gone.js',
      '  UNKNOWN externals/Trio: 3 references: externals/Trio is not cloned (the folder does not exist)',
      '  UNKNOWN externals/LoopFollow: 1 reference: externals/LoopFollow is not cloned (the folder does not exist)',
      '',
    ]);
  });

  it('--json still lists every ref: in the grouped error and in drift', async () => {
    const repo = workspace();
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json', 'docs'], { cwd: repo.dir });
    const doc = JSON.parse(r.stdout) as { broken: number; errors: { code: string; refs?: { file: string; line: number; ref: string }[] }[]; drift: { refs: { ref: string; status: string; reason: string | null }[] } };
    expect(doc.broken).toBe(5);
    expect(doc.errors.map((e) => [e.code, e.refs])).toEqual([
      [
        'not_cloned',
        [
          { file: 'docs/a.md', line: 1, ref: 'trio:Trio/A.swift#L1' },
          { file: 'docs/a.md', line: 1, ref: 'trio:Trio/B.swift#L2-L3' },
          { file: 'docs/b.md', line: 1, ref: 'trio:Trio/D.swift#L9' },
        ],
      ],
      ['not_cloned', [{ file: 'docs/a.md', line: 2, ref: 'lf:LoopFollow/C.swift#L4' }]],
      ['not_found', undefined],
    ]);
    expect(doc.drift.refs.filter((x) => x.status === 'unknown').map((x) => [x.ref, x.reason])).toEqual([
      ['trio:Trio/A.swift#L1', 'externals/Trio is not cloned (the folder does not exist)'],
      ['trio:Trio/B.swift#L2-L3', 'externals/Trio is not cloned (the folder does not exist)'],
      ['lf:LoopFollow/C.swift#L4', 'externals/LoopFollow is not cloned (the folder does not exist)'],
      ['trio:Trio/D.swift#L9', 'externals/Trio is not cloned (the folder does not exist)'],
    ]);
  });
});

// docs/workflows.md#externals-not-cloned-yet: a workspace whose externals are not cloned can pass.
describe('verify refs --allow-missing: refs into a folder not cloned are warnings', () => {
  it('only refs into an alias folder not cloned: WARNING, exit 0', async () => {
    const repo = workspace();
    const r = await refcatInProcess(['verify', 'refs', '--allow-missing', 'docs/b.md'], { cwd: repo.dir });
    expect(r).toEqual({
      code: 0,
      stdout:
        '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken (1 warning)\n' +
        '  WARNING externals/Trio: Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json): 1 reference into it\n' +
        '    Clone it: git clone https://github.com/nightscout/Trio.git externals/Trio && git -C externals/Trio checkout dev\n' +
        '    Reported as a warning: --allow-missing\n',
      stderr: '',
    });
  });

  it('every other ref is still checked: a missing file in a cloned alias fails', async () => {
    const repo = workspace();
    const r = await refcatInProcess(['verify', 'refs', '--allow-missing', '--json', 'docs'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { broken: number; errors: { code: string; ref?: string }[]; warnings: { code: string; refs: unknown[] }[] };
    expect(doc.broken).toBe(1);
    expect(doc.errors.map((e) => [e.code, e.ref])).toEqual([['not_found', 'here:gone.js']]);
    expect(doc.warnings.map((w) => [w.code, w.refs.length])).toEqual([['not_cloned', 3], ['not_cloned', 1]]);
  });

  it('--strict fails on them again', async () => {
    const repo = workspace();
    const r = await refcatInProcess(['verify', 'refs', '--allow-missing', '--strict', 'docs/b.md'], { cwd: repo.dir });
    expect(r.code).toBe(1);
  });
});

describe('uncloned externals are reported the same way everywhere', () => {
  it('a glob ref into a folder not cloned is in the Not cloned group, not "Glob matched no files"', async () => {
    const repo = workspace();
    repo.write({ 'docs/b.md': 'Also trio:Trio/D.swift#L9 and trio:Trio/Sources/*.swift.\n' });
    const r = await refcatInProcess(['verify', 'refs', 'docs/b.md'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ERROR externals/Trio: Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json): 2 broken references into it\n');
    expect(r.stdout).not.toContain('Glob matched no files');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a url and a ref', { url: 'https://example.com/Trio.git', ref: 'dev' },
      'Clone it: git clone --recurse-submodules https://example.com/Trio.git externals/Trio && git -C externals/Trio checkout dev && git -C externals/Trio submodule update --init --recursive'],
    ['a url', { url: 'https://example.com/Trio.git' }, 'Clone it: git clone --recurse-submodules https://example.com/Trio.git externals/Trio'],
    ['no url', {}, 'Clone the repository Trio of workspace.lock.json into externals/Trio, with its submodules (git clone --recurse-submodules)'],
  ])('"submodules": true in the lockfile: the clone hint brings the submodules (%s)', async (_name, fields, hint) => {
    const repo = GitRepo.init({
      'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio', submodules: true, ...fields }] }),
      'docs/a.md': 'trio:Trio/Sub/A.swift#L1\n',
    });
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: repo.dir });
    expect(r.stdout.split('\n')[2]).toBe(`    ${hint}`);
  }); // prettier-ignore

  it('looks each alias folder up once, however many refs point into it', async () => {
    const refs = Array.from({ length: 40 }, (_, i) => `trio:Trio/F${i}.swift#L1`).join('\n');
    const repo = GitRepo.init({ 'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio' }] }), 'docs/many.md': refs + '\n' });
    const folder = path.join(repo.dir, 'externals', 'Trio');
    const spy = vi.spyOn(fs, 'existsSync');
    try {
      const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: repo.dir });
      expect(r.stdout).toContain('40 broken references into it');
      expect(spy.mock.calls.filter(([p]) => p === folder)).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('reads nothing under a folder not cloned, and still checks a ref that leaves it', async () => {
    const repo = GitRepo.init({
      'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio' }] }),
      'externals/README.md': numbered('r', 3),
      'docs/a.md': 'trio:Trio/A.swift#L1 and trio:Trio/B.swift#/func b/\ntrio:../README.md#L2 holds.\n',
    });
    const folder = path.join(repo.dir, 'externals', 'Trio');
    const calls: string[] = [];
    const spies = (['statSync', 'openSync', 'existsSync', 'lstatSync'] as const).map((name) => {
      const real = fs[name] as (...args: unknown[]) => unknown;
      return vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
        if (typeof args[0] === 'string') calls.push(args[0]);
        return real.apply(fs, args);
      }) as never);
    });
    try {
      const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: repo.dir });
      expect(r.stdout.split('\n').slice(0, 2)).toEqual([
        '✗ FAILED: Scanned 1 file(s), found 3 reference(s): 1 valid, 2 broken',
        '  ERROR externals/Trio: Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json): 2 broken references into it',
      ]);
      expect(calls.filter((p) => p.startsWith(folder + path.sep))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('two aliases naming one folder not cloned', () => {
  it('verify refs names each alias; the hint is the lockfile\'s', async () => {
    const repo = workspace();
    repo.write({ 'docs/b.md': 'Also t2:Trio/X.swift and trio:Trio/D.swift#L9.\n' });
    const r = await refcatInProcess(['verify', 'refs', '--alias', 't2=externals/Trio', 'docs/b.md'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').slice(1, 3)).toEqual([
      '  ERROR externals/Trio: Not cloned: externals/Trio does not exist (aliases t2 from --alias, trio from workspace.lock.json): 2 broken references into it',
      '    Clone it: git clone https://github.com/nightscout/Trio.git externals/Trio && git -C externals/Trio checkout dev',
    ]);
  });
});

// docs/workflows.md#externals-not-cloned-yet: validate says it too, at each ref's own line.
describe('validate: refs into an alias folder that does not exist', () => {
  function flow(): GitRepo {
    const repo = workspace();
    repo.write({ 'flows/f.conv': 'REFCAT trio:Trio/A.swift#L1\nREFCAT lf:LoopFollow/C.swift\nREFCAT here:gone.js\nPROMPT go\n' });
    return repo;
  }

  it('text: Not cloned with how to clone it, at the ref\'s line; other missing files as before', async () => {
    const r = await refcatInProcess(['validate', 'flows/f.conv'], { cwd: flow().dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('✗ flows/f.conv: 3 errors\n');
    expect(r.stderr.split('\n').slice(0, 6)).toEqual([
      'Error: Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json)',
      '  Clone it: git clone https://github.com/nightscout/Trio.git externals/Trio && git -C externals/Trio checkout dev',
      '  at flows/f.conv:1',
      'Error: Not cloned: externals/LoopFollow does not exist (alias lf from workspace.lock.json)',
      '  Clone the repository LoopFollow of workspace.lock.json into externals/LoopFollow',
      '  at flows/f.conv:2',
    ]);
    expect(r.stderr).toContain('Error: REFCAT ref not found: here:gone.js');
  });

  it('--json: code not_cloned, the ref kept; --allow-missing makes them warnings', async () => {
    const repo = flow();
    const r = await refcatInProcess(['validate', '--json', 'flows/f.conv'], { cwd: repo.dir });
    const doc = JSON.parse(r.stdout) as { files: { errors: { code: string; line: number; ref: string }[] }[] };
    expect(doc.files[0]!.errors.map((e) => [e.code, e.line, e.ref])).toEqual([
      ['not_cloned', 1, 'trio:Trio/A.swift#L1'],
      ['not_cloned', 2, 'lf:LoopFollow/C.swift'],
      ['not_found', 3, 'here:gone.js'],
    ]);
    repo.write({ 'flows/f.conv': 'REFCAT trio:Trio/A.swift#L1\nPROMPT go\n' });
    const relaxed = await refcatInProcess(['validate', '--allow-missing', 'flows/f.conv'], { cwd: repo.dir });
    expect(relaxed.code).toBe(0);
    expect(relaxed.stderr).toContain('Warning: Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json)\n');
    expect(relaxed.stderr).toContain('  Reported as a warning: --allow-missing\n');
  });
});

describe('CONTEXT patterns into an alias folder that does not exist', () => {
  it('validate says Not cloned at each line, verify refs groups them with the rest of that folder', async () => {
    const repo = workspace();
    repo.write({ 'flows/c.conv': 'PROMPT go\nCONTEXT @trio:Trio/**/*.swift\nCONTEXT @trio:README.md\nCONTEXT @here:gone/*.js\n' });
    const v = await refcatInProcess(['validate', '--json', 'flows/c.conv'], { cwd: repo.dir });
    const doc = JSON.parse(v.stdout) as { files: { errors: { code: string; line: number; message: string }[] }[] };
    expect(doc.files[0]!.errors.map((e) => [e.code, e.line])).toEqual([
      ['not_cloned', 2],
      ['not_cloned', 3],
      ['context_no_match', 4],
    ]);
    expect(doc.files[0]!.errors[0]!.message).toBe('Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json)');
    const r = await refcatInProcess(['verify', 'refs', 'flows/c.conv'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  ERROR externals/Trio: Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json): 2 broken references into it\n');
    expect(r.stdout).toContain('CONTEXT pattern matches nothing: @here:gone/*.js');
  });
});

describe('verify refs: the clone hint never prints a credential of the lockfile url', () => {
  it('https://bot:TOKEN@host prints https://host; an ssh user stays', async () => {
    const token = ['gh', 'p_', 'Zx9'.repeat(12)].join('');
    const lock = {
      externals_dir: 'externals',
      repos: [
        { alias: 'gone', name: 'gone', url: `https://bot:${token}@github.com/org/gone.git` },
        { alias: 'tok', name: 'tok', url: `https://${token}@github.com/org/tok.git` },
        { alias: 'viassh', name: 'viassh', url: 'ssh://git@github.com/org/viassh.git' },
      ],
    };
    const repo = GitRepo.init({ 'workspace.lock.json': JSON.stringify(lock), 'docs/a.md': 'gone:x.md tok:y.md viassh:z.md\n' });
    for (const format of [[], ['--json']]) {
      const r = await refcatInProcess(['verify', 'refs', ...format, 'docs'], { cwd: repo.dir });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toContain(token);
      expect(r.stdout + r.stderr).not.toContain('Zx9Zx9Zx9');
      expect(r.stdout).toContain('git clone https://github.com/org/gone.git externals/gone');
      expect(r.stdout).toContain('git clone https://github.com/org/tok.git externals/tok');
      expect(r.stdout).toContain('git clone ssh://git@github.com/org/viassh.git externals/viassh');
    }
  });
});

describe('verify refs: a ref into a folder not cloned is never read', () => {
  it('at a version or by name: grouped as any other, with no git process and no grammar for it', async () => {
    const repo = workspace();
    fs.writeFileSync(path.join(repo.dir, 'docs/c.md'), 'See trio@v1.2.0:Trio/A.swift#L1, trio@main:Trio/B.swift#L2 and trio:Trio/Store.swift#Store.save.\n');
    const spawn = vi.spyOn(childProcess, 'spawn');
    try {
      const r = await refcatInProcess(['verify', 'refs', '--json', 'docs'], { cwd: repo.dir });
      const doc = JSON.parse(r.stdout) as { errors: { code: string; refs?: { ref: string }[] }[] };
      const trio = doc.errors.find((e) => e.code === 'not_cloned' && e.refs?.some((x) => x.ref.startsWith('trio')));
      expect(trio?.refs?.map((x) => x.ref)).toEqual(
        expect.arrayContaining(['trio@v1.2.0:Trio/A.swift#L1', 'trio@main:Trio/B.swift#L2', 'trio:Trio/Store.swift#Store.save']),
      );
      expect(spawn.mock.calls.filter(([cmd]) => cmd === 'git')).toEqual([]);
      expect(loadedGrammar(symbolLanguageOf('x.swift')!)).toBeNull();
    } finally {
      spawn.mockRestore();
    }
  });
});
