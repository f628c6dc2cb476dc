import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, fastParseCheck, fastParseExtract } from '../../src/cli/fast-argv.js';
import type { IO } from '../../src/cli/io.js';
import { createProgram } from '../../src/cli/program.js';

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
