import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, commandFirst, fastParseCheck, fastParseExtract, missingSubcommand, PARENT_COMMANDS, SUBCOMMANDS } from '../../src/cli/fast-argv.js';
import type { IO } from '../../src/cli/io.js';
import { createProgram } from '../../src/cli/program.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

function silentIO(): IO {
  return {
    ctx: { cwd: '/', env: {}, home: '/nonexistent' },
    stdout: () => {},
    stderr: () => {},
    stdin: process.stdin,
    color: false,
  };
}

/** What commander hands the default command's action for `argv`. */
async function viaCommander(argv: string[]) {
  const program = createProgram(silentIO(), () => {});
  let captured: { refs: string[]; opts: Record<string, unknown> } | undefined;
  program.commands
    .find((c) => c.name() === 'refcat')!
    .action((refs: string[], opts: Record<string, unknown>) => {
      captured = { refs, opts: { ...opts } };
    });
  await program.parseAsync(argv, { from: 'user' });
  return captured;
}

// The fast path must read every argv it accepts exactly as commander does.
const accepted: string[][] = [
  ['@a.py'],
  ['@a.py#L1-L5', '@b.ts'],
  ['refcat', '@a.py'],
  ['@a.py', '--json'],
  ['--json', '@a.py'],
  ['@a.py', '--spec', '--absolute', '--no-cwd', '--no-line-numbers', '--no-attribution'],
  ['@a.py', '-q'],
  ['@a.py', '--quiet'],
  ['@a.py', '--format', 'raw'],
  ['@a.py', '--format=spec'],
  ['@a.py', '-C', '3'],
  ['@a.py', '-C3'],
  ['@a.py', '--context=2'],
  ['@a.py', '--relative-to', 'src'],
  ['@a.py', '--alias', 'a=/x', '--alias=b=/y'],
  ['@a.py', '--validate-only', '--list-files', '--no-ignore'],
  ['@a.py', '--from-workflow', 'w.conv'],
  ['@a.py', '--tokens', '--encoding', 'cl100k_base', '--max-tokens', '500'],
  ['@a.py', '--max-tokens=20', '--encoding=o200k_base'],
  ['--', '-weird.py'],
  ['-'],
  [],
];

// Anything else is left to commander (which reports errors and prints help).
const refused: string[][] = [
  ['--help'],
  ['-h'],
  ['--version'],
  ['aliases'],
  ['mcp'],
  ['lsp'],
  ['@a.py', '--encoding', 'p50k_base'],
  ['@a.py', '--max-tokens', '0'],
  ['validate', 'x.conv'],
  ['help'],
  ['@a.py', '--jsn'],
  ['@a.py', '-C'],
  ['@a.py', '-C', 'x'],
  ['@a.py', '--format', 'html'],
  ['@a.py', '--alias', 'nope'],
  ['@a.py', '--json=yes'],
  ['@a.py', '-qC3'],
  ['@a.py', '--relative-to', '-V'],
];

describe('fastParseExtract', () => {
  it.each(accepted)('accepts %j like commander', async (...argv) => {
    const fast = fastParseExtract(argv);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(await viaCommander(argv));
  });

  it.each(refused)('leaves %j to commander', (...argv) => {
    expect(fastParseExtract(argv)).toBeNull();
  });

  it('knows every command name of the program', () => {
    const names = createProgram(silentIO(), () => {}).commands.map((c) => c.name());
    for (const name of names) expect(COMMAND_NAMES).toContain(name);
  });
});

/** What commander hands a check command's action (`validate`, `verify refs`) for `argv`. */
async function checkViaCommander(argv: string[]) {
  const program = createProgram(silentIO(), () => {});
  const verify = program.commands.find((c) => c.name() === 'verify')!;
  let captured: { words: string[]; paths: string[]; opts: Record<string, unknown> } | undefined;
  const capture = (words: string[]) => (paths: string[], opts: Record<string, unknown>) => {
    captured = { words, paths, opts: { ...opts } };
  };
  program.commands.find((c) => c.name() === 'validate')!.action(capture(['validate']));
  verify.commands.find((c) => c.name() === 'refs')!.action(capture(['verify', 'refs']));
  await program.parseAsync(argv, { from: 'user' });
  return captured;
}

const checkAccepted: string[][] = [
  ['verify', 'refs'],
  ['verify', 'refs', '.'],
  ['verify', 'refs', 'docs/', 'README.md', '--suggest-fixes'],
  ['verify', 'refs', '--strict', '--json'],
  ['verify', 'refs', '--format', 'github'],
  ['verify', 'refs', '--format=text', 'docs'],
  ['verify', 'refs', '-e', 'drafts/**', '--exclude', 'old/**', '-evendor/**', '--exclude=x'],
  ['verify', 'refs', '--alias', 'loop=/x', '--alias=b=/y'],
  ['verify', 'refs', '--no-snippets'],
  ['verify', 'refs', '--drift', '--since', 'main'],
  ['verify', 'refs', '--fix', '--dry-run', '--accept', '--fix-snippets'],
  ['verify', 'refs', '--', '-odd.md'],
  ['verify', 'refs', 'a', '--strict', 'b'],
  ['verify', 'refs', '--format', 'text', '--format', 'json'],
  ['verify', 'refs', '--since='],
  ['verify', 'refs', '-e=x'],
  ['verify', 'refs', '-'],
  ['verify', 'refs', 'docs', '--allow-missing'],
  ['validate', 'flow.conv'],
  ['validate', 'a.conv', 'b/', '--allow-missing', '--strict', '--format', 'json'],
  ['validate', '.', '-e', 'drafts/**'],
];

const checkRefused: string[][] = [
  ['verify'],
  ['verify', 'ref'],
  ['verify', 'refs', '--help'],
  ['verify', 'refs', '-h'],
  ['verify', 'refs', '--format', 'html'],
  ['verify', 'refs', '--format'],
  ['verify', 'refs', '--since'],
  ['verify', 'refs', '--since', '--drift'],
  ['verify', 'refs', '--alias', 'nope'],
  ['verify', 'refs', '--strcit'],
  ['verify', 'refs', '--json=yes'],
  ['verify', 'refs', '--allow-mising'],
  ['validate'],
  ['validate', '--strict'],
  ['validate', 'x.conv', '--drift'],
];

describe('fastParseCheck', () => {
  it.each(checkAccepted)('accepts %j like commander', async (...argv) => {
    const fast = fastParseCheck(argv);
    expect(fast).not.toBeNull();
    expect({ words: [...fast!.command.words], paths: fast!.paths, opts: fast!.opts }).toEqual(await checkViaCommander(argv));
  });

  it.each(checkRefused)('leaves %j to commander', (...argv) => {
    expect(fastParseCheck(argv)).toBeNull();
  });
});

// docs/reference.md#commands: flags before a command name apply to the command.
describe('commandFirst', () => {
  it.each<[string[], string[]]>([
    [['--json', 'validate', 'f.conv'], ['validate', '--json', 'f.conv']],
    [['--alias', 'x=y', 'aliases'], ['aliases', '--alias', 'x=y']],
    [['--alias=x=y', '--json', 'aliases'], ['aliases', '--alias=x=y', '--json']],
    [['--format', 'json', 'verify', 'refs', 'docs'], ['verify', 'refs', '--format', 'json', 'docs']],
    [['--alias', 'a=1', 'validate', '--alias', 'b=2', 'f.conv'], ['validate', '--alias', 'a=1', '--alias', 'b=2', 'f.conv']],
    [['--json', 'fd', 'list'], ['fd', 'list', '--json']],
    [['--json', 'verify', '--help'], ['verify', '--json', '--help']],
    // Left as they are: refs, the program's own flags, `--`, and a command name as a flag's value.
    [['--json', '@validate'], ['--json', '@validate']],
    [['--json', './validate'], ['--json', './validate']],
    [['--json', '--', 'validate'], ['--json', '--', 'validate']],
    [['--help', 'validate'], ['--help', 'validate']],
    [['-V', 'validate'], ['-V', 'validate']],
    [['--relative-to', 'validate', '@a.py'], ['--relative-to', 'validate', '@a.py']],
    [['-q', '@a.py', 'validate'], ['-q', '@a.py', 'validate']],
    [['@a.py', '--json', 'validate'], ['@a.py', '--json', 'validate']],
  ])('%j as %j', (argv, expected) => {
    expect(commandFirst(argv)).toEqual(expected);
  });

  it('returns an argv that starts with no flag as it is (the fast path of a plain ref)', () => {
    const argv = ['@a.py#L1', '--json'];
    expect(commandFirst(argv)).toBe(argv);
  });

  it('knows every command that has subcommands, and their names', () => {
    const parents = createProgram(silentIO(), () => {}).commands.filter((c) => c.commands.length > 0);
    expect([...PARENT_COMMANDS].sort()).toEqual(parents.map((c) => c.name()).sort());
    for (const parent of parents) {
      const names = parent.commands.map((c) => c.name()).filter((n) => n !== 'help');
      expect([...SUBCOMMANDS[parent.name()]!].sort(), parent.name()).toEqual(names.sort());
    }
  });

  it.each([
    [['verify', '--json'], "'refcat verify' needs a command for its flags: refs (refcat verify refs --json)"],
    [['verify', '--strict', '--drift'], "'refcat verify' needs a command for its flags: refs (refcat verify refs --strict --drift)"],
    [['fd', '--json'], "'refcat fd' needs a command for its flags: read, list, close or write (refcat fd read --json)"],
    [['ref', '-q'], "'refcat ref' needs a command for its flags: list, show, scan or export (refcat ref list -q)"],
    [['verify'], null],
    [['verify', '--help'], null],
    [['verify', '-h'], null],
    [['verify', 'refs', '--json'], null],
    [['verify', '--json', 'refs'], null],
    [['fd', '--store', 'dir'], null],
    [['validate', '--json'], null],
    [['@a.py', '--json'], null],
    [['constructor', '--json'], null],
    [['__proto__', '--json'], null],
  ])('%j without a subcommand: %j', (argv, expected) => {
    expect(missingSubcommand(argv)).toBe(expected);
  });

  it('a flag before a parent command, and no subcommand: one line that names them, exit 2', async () => {
    const dir = tmpDir({ 'a.md': 'x\n' });
    const r = await refcatInProcess(['--json', 'verify'], { cwd: dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', "Error: 'refcat verify' needs a command for its flags: refs (refcat verify refs --json)\n"]);
  });

  it('a flag before validate and aliases applies to them, in process', async () => {
    const dir = tmpDir({ 'f.conv': 'REFCAT @a.txt\nPROMPT go\n', 'a.txt': 'a\n' });
    const validate = await refcatInProcess(['--json', 'validate', 'f.conv'], { cwd: dir });
    expect([validate.code, (JSON.parse(validate.stdout) as { valid: boolean }).valid, validate.stderr]).toEqual([0, true, '']);
    const aliases = await refcatInProcess(['--alias', 'x=.', 'aliases'], { cwd: dir });
    expect([aliases.code, aliases.stdout.split('\n')[0]!.split(/\s+/).slice(0, 2)]).toEqual([0, ['x', dir]]);
    const typo = await refcatInProcess(['--json', 'valdate', 'f.conv'], { cwd: dir });
    expect([typo.code, typo.stderr]).toEqual([2, "Error: Unknown command 'valdate' (did you mean validate?)\n"]);
  });
});
