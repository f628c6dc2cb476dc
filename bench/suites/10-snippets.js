// Cited snippets (docs/snippets.md#cost): `verify refs` on 1,000 docs holding 10,000 citations
// (in-fence and caption forms, verbatim, excerpts and stale copies, in list items and block quotes
// too), against the same tree with --no-snippets (the refs checked, the lines not), in one run.
// Target: at most 2x; peak memory bounded (the docs are read one at a time).
import fs from 'node:fs';
import path from 'node:path';
import { compare, ensureTmp, fmt, peakMiB, refcatCmd } from '../lib.js';

const DOCS = 1000;
const CITATIONS_PER_DOC = 10;
const SOURCES = 200;
const root = path.join(ensureTmp(), 'snippets-1000');

const sourceLine = (n, l) => (l % 20 === 1 ? `export function step_${n}_${l}(input: number): number {` : `  const v${l} = input * ${l} + ${n}; // step ${l} of ${n}`);

function make() {
  if (fs.existsSync(path.join(root, '.done'))) return;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  for (let n = 0; n < SOURCES; n++) {
    const lines = Array.from({ length: 300 }, (_, i) => sourceLine(n, i + 1));
    fs.writeFileSync(path.join(root, 'src', `mod${n}.ts`), lines.join('\n') + '\n');
  }
  for (let d = 0; d < DOCS; d++) {
    const dir = path.join(root, 'docs', `area${d % 40}`);
    fs.mkdirSync(dir, { recursive: true });
    let doc = `# Notes ${d}\n\nSome prose about the module, a link to https://example.com/a/${d} and user@example.com.\n\n`;
    for (let c = 0; c < CITATIONS_PER_DOC; c++) {
      const n = (d * 7 + c * 13) % SOURCES;
      const start = 1 + ((d * 31 + c * 17) % 280);
      const end = start + 4 + (c % 12);
      const ref = `@src/mod${n}.ts#L${start}-L${end}`;
      const code = [];
      for (let l = start; l <= end; l++) code.push(sourceLine(n, l));
      if (c % 5 === 3) code[1] = '  // 1. an invented line';
      if (c % 5 === 4) code.splice(1, code.length - 2, '  // ...');
      const prose = `Paragraph ${c} explains the step with \`inline code\`, a table and *emphasis*.\n\n| a | b |\n|---|---|\n| ${c} | ${d} |\n\n`;
      if (c % 3 === 0) doc += prose + `**Source**: \`${ref}\`\n\n\`\`\`ts\n${code.join('\n')}\n\`\`\`\n\n`;
      else if (c % 3 === 1) doc += prose + `- In a list item:\n\n  \`\`\`ts\n  // ${ref}\n${code.map((l) => '  ' + l).join('\n')}\n  \`\`\`\n\n`;
      else doc += prose + `> \`\`\`ts\n> // ${ref}\n${code.map((l) => '> ' + l).join('\n')}\n> \`\`\`\n\n`;
    }
    fs.writeFileSync(path.join(dir, `note${d}.md`), doc);
  }
  fs.writeFileSync(path.join(root, '.done'), '');
}

make();
const opts = { cwd: root };
const check = (...flags) => refcatCmd('verify', 'refs', 'docs', ...flags);
// verify refs exits 1 here (stale snippets and invented lines on purpose): time it through a shell that ignores that.
const shell = (argv) => ['/bin/sh', '-c', `${argv.map((a) => `'${a}'`).join(' ')} >/dev/null; exit 0`];
const [withSnippets, without] = compare([shell(check()), shell(check('--no-snippets'))], 7, opts);
console.log(`verify refs, 1,000 docs, 10,000 citations:   ${fmt(withSnippets)}`);
console.log(`the same with --no-snippets:                  ${fmt(without)}`);
console.log(`ratio: ${(withSnippets / without).toFixed(2)}x (target <= 2x)`);
console.log(`peak memory with snippets: ${peakMiB(['verify', 'refs', 'docs', '--json'], opts).toFixed(0)} MiB`);
