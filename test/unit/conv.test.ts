import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_DIRECTIVES, suggestDirective } from '../../src/core/workflow/conv-directives.js';
import { editDistance } from '../../src/shared/did-you-mean.js';
import { loadConv } from '../../src/core/workflow/load-conv.js';
import { parseConv } from '../../src/core/workflow/parse-conv.js';
import { convRefs, splitRefs } from '../../src/core/workflow/conv-refs.js';
import type { ConversationFile } from '../../src/core/workflow/conv-types.js';

/** Directives as `line NAME value` (`line-endLine` for multi-line values), blocks as `[b0]`. */
function directives(conv: ConversationFile): string[] {
  return conv.directives.map((d) => {
    const lines = d.endLine === d.line ? `${d.line}` : `${d.line}-${d.endLine}`;
    const block = d.block === null ? '' : ` [b${d.block}]`;
    return `${lines} ${d.name}${d.value ? ' ' + JSON.stringify(d.value) : ''}${block}`;
  });
}

/** Problems as `line severity: message`. */
function problems(conv: ConversationFile): string[] {
  return conv.problems.map((p) => `${p.line ?? '-'} ${p.severity}: ${p.message}`);
}

const text = (...lines: string[]) => lines.join('\n') + '\n';

// docs/reference.md#the-conv-format: every directive family, one directive per line, comments and blank lines.
describe('parseConv: directives', () => {
  it.each<[string, string, string[]]>([
    ['metadata', text('MODEL gpt-4', 'ADAPTER copilot', 'MODE audit', 'MAX-CYCLES 3', 'CWD ./src', 'SESSION-NAME s1'), [
      '1 MODEL "gpt-4"', '2 ADAPTER "copilot"', '3 MODE "audit"', '4 MAX-CYCLES "3"', '5 CWD "./src"', '6 SESSION-NAME "s1"',
    ]],
    ['model requirements', text('MODEL-REQUIRES context:100k', 'MODEL-PREFERS speed', 'MODEL-POLICY cheapest'), [
      '1 MODEL-REQUIRES "context:100k"', '2 MODEL-PREFERS "speed"', '3 MODEL-POLICY "cheapest"',
    ]],
    ['context', text('CONTEXT @lib/*.js', 'CONTEXT-OPTIONAL @x.md', 'CONTEXT-EXCLUDE @lib/gen.js', 'CONTEXT-LIMIT 80%', 'ON-CONTEXT-LIMIT compact'), [
      '1 CONTEXT "@lib/*.js"', '2 CONTEXT-OPTIONAL "@x.md"', '3 CONTEXT-EXCLUDE "@lib/gen.js"', '4 CONTEXT-LIMIT "80%"', '5 ON-CONTEXT-LIMIT "compact"',
    ]],
    ['file restrictions', text('VALIDATION-MODE lenient', 'ALLOW-FILES src/**', 'DENY-FILES *.env', 'ALLOW-DIR src', 'DENY-DIR secrets'), [
      '1 VALIDATION-MODE "lenient"', '2 ALLOW-FILES "src/**"', '3 DENY-FILES "*.env"', '4 ALLOW-DIR "src"', '5 DENY-DIR "secrets"',
    ]],
    ['injection and output', text('PROLOGUE Date: {{DATE}}', 'EPILOGUE Cite lines.', 'HEADER # Report', 'FOOTER ---', 'OUTPUT out.md', 'OUTPUT-FORMAT markdown', 'OUTPUT-FILE r.md', 'OUTPUT-DIR reports'), [
      '1 PROLOGUE "Date: {{DATE}}"', '2 EPILOGUE "Cite lines."', '3 HEADER "# Report"', '4 FOOTER "---"', '5 OUTPUT "out.md"', '6 OUTPUT-FORMAT "markdown"', '7 OUTPUT-FILE "r.md"', '8 OUTPUT-DIR "reports"',
    ]],
    ['compaction', text('COMPACT', 'COMPACT-PRESERVE errors', 'COMPACT-PROLOGUE a', 'COMPACT-EPILOGUE b', 'NEW-CONVERSATION', 'INFINITE-SESSIONS on', 'COMPACTION-MIN 30', 'COMPACTION-THRESHOLD 80%', 'COMPACTION-MAX 95'), [
      '1 COMPACT', '2 COMPACT-PRESERVE "errors"', '3 COMPACT-PROLOGUE "a"', '4 COMPACT-EPILOGUE "b"', '5 NEW-CONVERSATION', '6 INFINITE-SESSIONS "on"', '7 COMPACTION-MIN "30"', '8 COMPACTION-THRESHOLD "80%"', '9 COMPACTION-MAX "95"',
    ]],
    ['checkpoints and flow', text('ELIDE', 'CHECKPOINT', 'CHECKPOINT-AFTER each-cycle', 'CHECKPOINT-NAME c', 'PAUSE "review"', 'CONSULT "Design"', 'CONSULT-TIMEOUT 1h'), [
      '1 ELIDE', '2 CHECKPOINT', '3 CHECKPOINT-AFTER "each-cycle"', '4 CHECKPOINT-NAME "c"', '5 PAUSE "\\"review\\""', '6 CONSULT "\\"Design\\""', '7 CONSULT-TIMEOUT "1h"',
    ]],
    ['run family', text('RUN npm test', 'RUN-ON-ERROR continue', 'RUN-OUTPUT always', 'RUN-OUTPUT-LIMIT 10K', 'RUN-ENV A=1', 'RUN-CWD sub', 'ALLOW-SHELL true', 'RUN-TIMEOUT 2m', 'RUN-ASYNC srv', 'RUN-WAIT 5s', 'RUN-RETRY 3 "fix it"'), [
      '1 RUN "npm test"', '2 RUN-ON-ERROR "continue"', '3 RUN-OUTPUT "always"', '4 RUN-OUTPUT-LIMIT "10K"', '5 RUN-ENV "A=1"', '6 RUN-CWD "sub"', '7 ALLOW-SHELL "true"', '8 RUN-TIMEOUT "2m"', '9 RUN-ASYNC "srv"', '10 RUN-WAIT "5s"', '11 RUN-RETRY "3 \\"fix it\\""',
    ]],
    ['verify family', text('VERIFY refs', 'VERIFY-ON-ERROR warn', 'VERIFY-OUTPUT always', 'VERIFY-LIMIT 5K', 'VERIFY-TRACE UCA-1 -> SC-1', 'VERIFY-COVERAGE >= 80', 'CHECK-REFS', 'CHECK-LINKS', 'CHECK-TRACEABILITY'), [
      '1 VERIFY "refs"', '2 VERIFY-ON-ERROR "warn"', '3 VERIFY-OUTPUT "always"', '4 VERIFY-LIMIT "5K"', '5 VERIFY-TRACE "UCA-1 -> SC-1"', '6 VERIFY-COVERAGE ">= 80"', '7 CHECK-REFS', '8 CHECK-LINKS', '9 CHECK-TRACEABILITY',
    ]],
    ['refs, requirements and the rest', text('REFCAT @a.py#L1-L5 @b.ts', 'REQUIRE @package.json cmd:git', 'HELP directives', 'HELP-INLINE refcat', 'LSP types', 'INCLUDE common.conv', 'DEBUG session', 'DEBUG-INTENTS', 'EVENT-LOG ev.json', 'ALIAS loop=../LoopKit'), [
      '1 REFCAT "@a.py#L1-L5 @b.ts"', '2 REQUIRE "@package.json cmd:git"', '3 HELP "directives"', '4 HELP-INLINE "refcat"', '5 LSP "types"', '6 INCLUDE "common.conv"', '7 DEBUG "session"', '8 DEBUG-INTENTS', '9 EVENT-LOG "ev.json"', '10 ALIAS "loop=../LoopKit"',
    ]],
    ['comments and blank lines are skipped, line numbers are physical', text('# title', '', '   # indented comment', 'MODEL gpt-4', '', 'MODE audit'), [
      '4 MODEL "gpt-4"', '6 MODE "audit"',
    ]],
    ['leading whitespace before a directive, tabs as separators, values trimmed', text('  MODEL   gpt-4  ', '\tMODE\taudit'), [
      '1 MODEL "gpt-4"', '2 MODE "audit"',
    ]],
    ['CRLF line endings and a BOM', '\uFEFFMODEL gpt-4\r\nMODE audit\r\n', ['1 MODEL "gpt-4"', '2 MODE "audit"']],
    ['no final newline', 'MODEL gpt-4\nMODE audit', ['1 MODEL "gpt-4"', '2 MODE "audit"']],
    ['empty text', '', []],
  ])('%s', (_name, input, expected) => {
    const conv = parseConv(input);
    expect(directives(conv)).toEqual(expected);
    expect(problems(conv)).toEqual([]);
  }); // prettier-ignore

  it('knows every directive of docs/reference.md#the-conv-format', () => {
    const spec = `MODEL ADAPTER MODE MAX-CYCLES CWD SESSION-NAME
  MODEL-REQUIRES MODEL-PREFERS MODEL-POLICY CONTEXT CONTEXT-OPTIONAL CONTEXT-EXCLUDE CONTEXT-LIMIT
  ON-CONTEXT-LIMIT VALIDATION-MODE ALLOW-FILES DENY-FILES ALLOW-DIR DENY-DIR PROLOGUE EPILOGUE PROMPT
  ON-CONTEXT-LIMIT-PROMPT COMPACT COMPACT-PRESERVE COMPACT-SUMMARY COMPACT-PROLOGUE COMPACT-EPILOGUE
  NEW-CONVERSATION INFINITE-SESSIONS COMPACTION-MIN COMPACTION-THRESHOLD COMPACTION-MAX ELIDE
  CHECKPOINT CHECKPOINT-AFTER CHECKPOINT-NAME HEADER FOOTER OUTPUT OUTPUT-FORMAT OUTPUT-FILE OUTPUT-DIR
  RUN RUN-ON-ERROR RUN-OUTPUT RUN-OUTPUT-LIMIT RUN-ENV RUN-CWD ALLOW-SHELL RUN-TIMEOUT RUN-ASYNC
  RUN-WAIT RUN-RETRY VERIFY VERIFY-ON-ERROR VERIFY-OUTPUT VERIFY-LIMIT VERIFY-TRACE VERIFY-COVERAGE
  CHECK-REFS CHECK-LINKS CHECK-TRACEABILITY REFCAT PAUSE CONSULT CONSULT-TIMEOUT ON-FAILURE ON-SUCCESS
  END REQUIRE HELP HELP-INLINE LSP INCLUDE DEBUG DEBUG-INTENTS EVENT-LOG ALIAS`.split(/\s+/);
    expect([...KNOWN_DIRECTIVES].sort()).toEqual(spec.sort());
    const conv = parseConv(KNOWN_DIRECTIVES.filter((d) => !['ON-FAILURE', 'ON-SUCCESS', 'END'].includes(d)).join(' x\n'));
    expect(conv.problems).toEqual([]);
  });

  it('records the file of every directive and problem', () => {
    const conv = parseConv('MODEL gpt-4\nPROMTP x\n', { file: '/w/flow.conv' });
    expect(conv.path).toBe('/w/flow.conv');
    expect(conv.directives[0]!.file).toBe('/w/flow.conv');
    expect(conv.problems[0]!.file).toBe('/w/flow.conv');
  });
});

// docs/reference.md#the-conv-format: PROMPT, ON-CONTEXT-LIMIT-PROMPT and COMPACT-SUMMARY continue until a known directive.
describe('parseConv: multi-line values', () => {
  it.each<[string, string, string[]]>([
    ['one-line PROMPT', text('PROMPT Analyze.', 'MODEL gpt-4'), ['1 PROMPT "Analyze."', '2 MODEL "gpt-4"']],
    ['continues until the next known directive', text('PROMPT ## Phase 1', '', 'Review the code.', '- item', 'COMPACT'), [
      '1-4 PROMPT "## Phase 1\\n\\nReview the code.\\n- item"', '5 COMPACT',
    ]],
    ['keeps # lines (markdown headings) inside the value', text('PROMPT Task', '# Heading', '## Sub', 'text', 'RUN x'), [
      '1-4 PROMPT "Task\\n# Heading\\n## Sub\\ntext"', '5 RUN "x"',
    ]],
    ['drops trailing blank lines, keeps inner ones', text('PROMPT a', '', 'b', '', '', 'MODEL m'), ['1-3 PROMPT "a\\n\\nb"', '6 MODEL "m"']],
    ['keeps indentation of continuation lines', text('PROMPT |', '  Analyze.', '    - deep', 'END-OF-TEXT is not a directive'), [
      '1-4 PROMPT "|\\n  Analyze.\\n    - deep\\nEND-OF-TEXT is not a directive"',
    ]],
    ['a value that starts on the next line', text('PROMPT', 'First line', 'Second'), ['1-3 PROMPT "First line\\nSecond"']],
    ['unknown upper-case words are text', text('PROMPT Go', 'NOTE: careful', 'TODO fix', 'OK then'), ['1-4 PROMPT "Go\\nNOTE: careful\\nTODO fix\\nOK then"']],
    ['an indented known directive ends the value', text('PROMPT Steps:', '1. run tests', '   RUN npm test', 'PROMPT Next'), [
      '1-2 PROMPT "Steps:\\n1. run tests"', '3 RUN "npm test"', '4 PROMPT "Next"',
    ]],
    ['ON-CONTEXT-LIMIT-PROMPT', text('ON-CONTEXT-LIMIT-PROMPT Summarize', 'then continue', 'MODEL m'), [
      '1-2 ON-CONTEXT-LIMIT-PROMPT "Summarize\\nthen continue"', '3 MODEL "m"',
    ]],
    ['COMPACT-SUMMARY', text('COMPACT-SUMMARY Keep:', '- errors', '- decisions'), ['1-3 COMPACT-SUMMARY "Keep:\\n- errors\\n- decisions"']],
    ['a multi-line value at the end of the file', 'PROMPT a\nb', ['1-2 PROMPT "a\\nb"']],
    ['PROLOGUE is one line only', text('PROLOGUE a', 'PROLOGUE b'), ['1 PROLOGUE "a"', '2 PROLOGUE "b"']],
  ])('%s', (_name, input, expected) => {
    const conv = parseConv(input);
    expect(directives(conv)).toEqual(expected);
    expect(problems(conv)).toEqual([]);
  }); // prettier-ignore
});

// Lines that are not what they look like: warnings, with line numbers.
describe('parseConv: unknown directives and orphan text', () => {
  it.each<[string, string, string[], string[]]>([
    ['a typo with did-you-mean', text('MODEL m', 'PROMTP Analyze'), ['1 MODEL "m"'], [
      "2 warning: Unknown directive 'PROMTP' (did you mean PROMPT?)",
    ]],
    ['an unknown directive without a close match', text('FROBNICATE x', 'PROMPT p'), ['2 PROMPT "p"'], ["1 warning: Unknown directive 'FROBNICATE'"]],
    ['a misspelt hyphenated directive', text('CONTEXT-OPTINAL @x.md'), [], ["1 warning: Unknown directive 'CONTEXT-OPTINAL' (did you mean CONTEXT-OPTIONAL?)"]],
    ['a typo inside a PROMPT is kept as text and flagged', text('PROMPT a', 'COMAPCT'), ['1-2 PROMPT "a\\nCOMAPCT"'], [
      "2 warning: Unknown directive 'COMAPCT' (did you mean COMPACT?)",
    ]],
    ['short upper-case words inside a PROMPT are not typos', text('PROMPT a', 'DONE and MODE are fine', 'TODO'), ['1-3 PROMPT "a\\nDONE and MODE are fine\\nTODO"'], []],
    ['text after a one-line directive', text('RUN python3 -c "', 'print(1)', '"', 'PROMPT p'), ['1 RUN "python3 -c \\""', '4 PROMPT "p"'], [
      '2 warning: Text outside any directive is ignored (lines 2-3)',
    ]],
    ['text after a directive that ended a PROMPT', text('PROMPT ## Phase', 'text', 'PROLOGUE 6. Commit', 'More prompt text.', '', 'Even more.'), [
      '1-2 PROMPT "## Phase\\ntext"', '3 PROLOGUE "6. Commit"',
    ], ['4 warning: Text outside any directive is ignored (lines 4-6)']],
    ['text before any directive', text('hello', 'MODEL m'), ['2 MODEL "m"'], ['1 warning: Text outside any directive is ignored (line 1)']],
    ['a directive name must be followed by whitespace', text('MODEL: gpt-4'), [], ['1 warning: Text outside any directive is ignored (line 1)']],
  ])('%s', (_name, input, expectedDirectives, expectedProblems) => {
    const conv = parseConv(input);
    expect(directives(conv)).toEqual(expectedDirectives);
    expect(problems(conv)).toEqual(expectedProblems);
  }); // prettier-ignore

  it('explains orphan text: what ended the prompt, or which directive takes one line', () => {
    const cut = parseConv(text('PROMPT ## Phase', 'PROLOGUE 6. Commit', 'Keep backlogs small.'));
    expect(cut.problems[0]!.details).toEqual([
      'Starts with: Keep backlogs small.',
      'PROLOGUE on line 2 ended the PROMPT of line 1; PROLOGUE takes one line',
    ]);
    const run = parseConv(text('RUN python3 -c "', 'print(1)'));
    expect(run.problems[0]!.details).toEqual([
      'Starts with: print(1)',
      'RUN on line 1 takes one line; only PROMPT, ON-CONTEXT-LIMIT-PROMPT and COMPACT-SUMMARY continue on the next lines',
    ]);
    const typo = parseConv(text('PROMPT a', 'PROMTP b'));
    expect(typo.problems[0]!.details).toEqual(['Kept as text of the PROMPT of line 1']);
  });

  it.each([
    ['PROMTP', 'PROMPT'],
    ['MODLE', 'MODEL'],
    ['CHECKPOINTS', 'CHECKPOINT'],
    ['RUNN', 'RUN'],
    ['ALIASES', 'ALIAS'],
    ['ZZZZZZZZ', null],
    ['TODO', null],
  ])('suggestDirective(%s) = %s', (name, expected) => {
    expect(suggestDirective(name)).toBe(expected);
  });

  it.each([
    ['PROMPT', 'PROMPT', 0],
    ['PROMTP', 'PROMPT', 1],
    ['MODEL', 'MODE', 1],
    ['', 'RUN', 3],
    ['abc', 'xyz', 3],
  ])('editDistance(%s, %s) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});

// docs/reference.md#the-conv-format: ON-FAILURE / ON-SUCCESS open a block after a RUN, closed by END.
describe('parseConv: ON-FAILURE / ON-SUCCESS blocks', () => {
  it.each<[string, string, string[], string[]]>([
    ['a block after a RUN', text('RUN npm test', 'ON-FAILURE', '  PROMPT Fix the tests', '  RUN npm test', 'END', 'PROMPT next'), [
      '1 RUN "npm test"', '2 ON-FAILURE [b0]', '3 PROMPT "Fix the tests" [b0]', '4 RUN "npm test" [b0]', '5 END [b0]', '6 PROMPT "next"',
    ], []],
    ['both blocks on one RUN', text('RUN make', 'ON-FAILURE', 'PROMPT fix', 'END', 'ON-SUCCESS', 'PROMPT ship', 'END'), [
      '1 RUN "make"', '2 ON-FAILURE [b0]', '3 PROMPT "fix" [b0]', '4 END [b0]', '5 ON-SUCCESS [b1]', '6 PROMPT "ship" [b1]', '7 END [b1]',
    ], []],
    ['END closes a multi-line PROMPT inside the block', text('RUN x', 'ON-FAILURE', 'PROMPT Fix', 'the tests', 'END'), [
      '1 RUN "x"', '2 ON-FAILURE [b0]', '3-4 PROMPT "Fix\\nthe tests" [b0]', '5 END [b0]',
    ], []],
    ['unclosed ON-FAILURE', text('RUN x', 'ON-FAILURE', 'PROMPT fix'), ['1 RUN "x"', '2 ON-FAILURE [b0]', '3 PROMPT "fix" [b0]'], [
      '2 error: Unclosed ON-FAILURE block (missing END)',
    ]],
    ['stray END', text('PROMPT a', 'END'), ['1 PROMPT "a"', '2 END'], ['2 error: END without a matching ON-FAILURE or ON-SUCCESS']],
    ['ON-SUCCESS without a RUN', text('PROMPT a', 'ON-SUCCESS', 'PROMPT b', 'END'), ['1 PROMPT "a"', '2 ON-SUCCESS [b0]', '3 PROMPT "b" [b0]', '4 END [b0]'], [
      '2 error: ON-SUCCESS without a preceding RUN',
    ]],
    ['nested blocks', text('RUN a', 'ON-FAILURE', 'RUN b', 'ON-FAILURE', 'END', 'END'), [
      '1 RUN "a"', '2 ON-FAILURE [b0]', '3 RUN "b" [b0]', '4 ON-FAILURE [b1]', '5 END [b1]', '6 END [b0]',
    ], ['4 error: Nested ON-FAILURE/ON-SUCCESS blocks are not allowed']],
  ])('%s', (_name, input, expectedDirectives, expectedProblems) => {
    const conv = parseConv(input);
    expect(directives(conv)).toEqual(expectedDirectives);
    expect(problems(conv)).toEqual(expectedProblems);
  }); // prettier-ignore

  it('links each block to its RUN and END', () => {
    const conv = parseConv(text('RUN a', 'RUN b', 'ON-FAILURE', 'PROMPT fix', 'END'));
    expect(conv.blocks).toEqual([{ kind: 'ON-FAILURE', file: '', line: 3, endLine: 5, run: conv.directives[1] }]);
  });
});

describe('INCLUDE (loadConv)', () => {
  const files: Record<string, string> = {
    '/w/main.conv': text('MODEL m', 'INCLUDE parts/common.conv', 'PROMPT main'),
    '/w/parts/common.conv': text('# shared', 'CONTEXT @README.md', 'INCLUDE ../more.conv'),
    '/w/more.conv': text('REFCAT @a.py'),
    '/w/cycle-a.conv': text('PROMPT a', 'INCLUDE cycle-b.conv'),
    '/w/cycle-b.conv': text('INCLUDE cycle-a.conv'),
    '/w/self.conv': text('INCLUDE self.conv'),
    '/w/missing.conv': text('PROMPT p', 'INCLUDE nope.conv', 'INCLUDE'),
    '/w/diamond.conv': text('INCLUDE more.conv', 'INCLUDE more.conv'),
    '/w/block.conv': text('RUN x', 'ON-FAILURE', 'INCLUDE more.conv', 'END'),
    '/w/typo.conv': text('INCLUDE bad.conv'),
    '/w/bad.conv': text('PROMTP x'),
  };
  const readFile = (p: string) => {
    if (p === '/w/dir.conv') throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    const t = files[p];
    if (t === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    return t;
  };
  const load = (file: string) => loadConv(file, { readFile, display: (p) => path.relative('/w', p) });
  const where = (conv: ConversationFile) => conv.directives.map((d) => `${path.relative('/w', d.file)}:${d.line} ${d.name}`);

  it('splices included files in after their INCLUDE, paths relative to the including file', () => {
    const conv = load('/w/main.conv');
    expect(where(conv)).toEqual([
      'main.conv:1 MODEL',
      'main.conv:2 INCLUDE',
      'parts/common.conv:2 CONTEXT',
      'parts/common.conv:3 INCLUDE',
      'more.conv:1 REFCAT',
      'main.conv:3 PROMPT',
    ]);
    expect(conv.files).toEqual(['/w/main.conv', '/w/parts/common.conv', '/w/more.conv']);
    expect(conv.problems).toEqual([]);
  });

  it.each<[string, string[]]>([
    ['/w/cycle-a.conv', ['cycle-b.conv:1 error include_cycle: INCLUDE cycle: cycle-a.conv -> cycle-b.conv -> cycle-a.conv']],
    ['/w/self.conv', ['self.conv:1 error include_cycle: INCLUDE cycle: self.conv -> self.conv']],
    ['/w/missing.conv', [
      'missing.conv:2 error include_not_found: INCLUDE file not found: nope.conv',
      'missing.conv:3 error include_not_found: INCLUDE needs a file path',
    ]],
    ['/w/typo.conv', ["bad.conv:1 warning unknown_directive: Unknown directive 'PROMTP' (did you mean PROMPT?)"]],
    ['/w/diamond.conv', []],
  ])('%s', (file, expected) => {
    const conv = load(file);
    expect(conv.problems.map((p) => `${path.relative('/w', p.file)}:${p.line} ${p.severity} ${p.code}: ${p.message}`)).toEqual(expected);
  }); // prettier-ignore

  it('names the place searched for a missing INCLUDE, and reads a folder as unreadable', () => {
    expect(load('/w/missing.conv').problems[0]!.details).toEqual(['Searched: /w/nope.conv']);
    const conv = loadConv('/w/x.conv', { readFile: (p) => (p === '/w/x.conv' ? 'INCLUDE dir.conv\n' : readFile(p)) });
    expect(conv.problems.map((p) => p.message)).toEqual(['Cannot read INCLUDE file dir.conv: is a directory']);
  });

  it('an INCLUDE inside a block puts the included directives in that block', () => {
    const conv = load('/w/block.conv');
    expect(conv.directives.map((d) => `${d.name} ${d.block}`)).toEqual(['RUN null', 'ON-FAILURE 0', 'INCLUDE 0', 'REFCAT 0', 'END 0']);
  });

  it('throws a RefError when the top-level file cannot be read', () => {
    expect(() => load('/w/none.conv')).toThrow('Cannot read none.conv: no such file');
  });
});

// REFCAT takes several refs; a pattern with spaces stays one ref (decision in refs.ts).
describe('splitRefs / convRefs', () => {
  it.each<[string, string[]]>([
    ['@a.py', ['@a.py']],
    ['@a.py#L1-L5 @b.ts   loop:c.swift#L3', ['@a.py#L1-L5', '@b.ts', 'loop:c.swift#L3']],
    ['@a.py#/def main/ @b.py', ['@a.py#/def main/', '@b.py']],
    ['@a.py#/class Foo/:+50\t@b.py#/x y/:block', ['@a.py#/class Foo/:+50', '@b.py#/x y/:block']],
    ['@a.py#/a\\/b c/ @d.py', ['@a.py#/a\\/b c/', '@d.py']],
    ['@a.py#/unclosed @b.py', ['@a.py#/unclosed', '@b.py']],
    ['@a.py#/x @b.py#/y/', ['@a.py#/x', '@b.py#/y/']],
    ['', []],
  ])('%j', (value, expected) => {
    expect(splitRefs(value)).toEqual(expected);
  });

  it('takes REFCAT refs and the @ patterns of CONTEXT and CONTEXT-OPTIONAL, not inline text', () => {
    const conv = parseConv(text('REFCAT @a.py @b.py', 'CONTEXT @lib/*.js', 'CONTEXT Remember the style guide', 'CONTEXT-OPTIONAL @x.md', 'PROLOGUE @p.md'));
    expect(convRefs(conv).map((r) => `${r.kind} ${r.ref} ${r.directive.line}`)).toEqual([
      'REFCAT @a.py 1',
      'REFCAT @b.py 1',
      'CONTEXT @lib/*.js 2',
      'CONTEXT-OPTIONAL @x.md 4',
    ]);
  });
});
