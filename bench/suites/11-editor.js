// `refcat lsp` work per change (docs/editor.md#how-it-checks): a docs page of 2,000 refs into 1,000
// files (line ranges, patterns, a few broken), checked cold, then re-checked after one line changed
// (target: <= 0.1x of the cold check: only that line's ref is resolved again), after a line was
// inserted at the top (every ref moves down a line, none is resolved again), and after one target
// file changed on disk. CPU time of this process, medians of 7 runs.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureTmp, median, ROOT } from '../lib.js';

const { checkDocument } = await import(pathToFileURL(path.join(ROOT, 'dist/core/editor/check-document.js')).href);
const { EditorSession } = await import(pathToFileURL(path.join(ROOT, 'dist/core/editor/editor-session.js')).href);

const root = path.join(ensureTmp(), 'editor');
fs.rmSync(root, { recursive: true, force: true });
for (let i = 0; i < 1000; i++) {
  let text = '';
  for (let l = 1; l <= 200; l++) text += l % 25 === 1 ? `function f${i}_${l}(input) {\n` : `  const v${l} = step(${i}, ${l});\n`;
  fs.mkdirSync(path.join(root, `src/m${i % 20}`), { recursive: true });
  fs.writeFileSync(path.join(root, `src/m${i % 20}/file${i}.js`), text);
}
const lines = [];
for (let i = 0; i < 2000; i++) {
  const f = `src/m${i % 20}/file${i % 1000}.js`;
  if (i % 100 === 99) lines.push(`- broken: @src/gone/file${i}.js#L1`);
  else if (i % 2 === 0) lines.push(`- see @${f}#L${(i % 150) + 1}-L${(i % 150) + 20} for the step`);
  else lines.push(`- the function: @${f}#/function f${i % 1000}_26/:+3`);
}
const text = lines.join('\n') + '\n';
const docPath = path.join(root, 'docs/guide.md');
const doc = (t, version) => ({ path: docPath, kind: 'markdown', text: t, version });

const cpuMs = (fn) => async () => {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const runs = async (make) => {
  const out = [];
  for (let r = 0; r < 7; r++) out.push(await make());
  return median(out);
};

let resolutions = { cold: 0, edit: 0, insert: 0, touched: 0 };
const cold = await runs(async () => {
  const session = new EditorSession({ cwd: root, env: {}, home: root });
  const ms = await cpuMs(() => checkDocument(doc(text, 1), session))();
  resolutions.cold = session.resolutions;
  return ms;
});
const warmSession = async () => {
  const session = new EditorSession({ cwd: root, env: {}, home: root });
  await checkDocument(doc(text, 1), session);
  return session;
};
const edited = text.replace('- see @src/m10/file10.js#L11-L30', '- see @src/m10/file10.js#L12-L30');
const edit = await runs(async () => {
  const session = await warmSession();
  const before = session.resolutions;
  const ms = await cpuMs(() => checkDocument(doc(edited, 2), session))();
  resolutions.edit = session.resolutions - before;
  return ms;
});
const insert = await runs(async () => {
  const session = await warmSession();
  const before = session.resolutions;
  const ms = await cpuMs(() => checkDocument(doc('# Guide\n' + text, 2), session))();
  resolutions.insert = session.resolutions - before;
  return ms;
});
const target = path.join(root, 'src/m3/file3.js');
const touched = await runs(async () => {
  const session = await warmSession();
  const before = session.resolutions;
  fs.appendFileSync(target, '// one more line\n');
  const ms = await cpuMs(() => checkDocument(doc(text, 2), session))();
  resolutions.touched = session.resolutions - before;
  return ms;
});

const r = (ms) => `${ms.toFixed(1)} ms`;
console.log(`editor: 2,000 refs, cold check            ${r(cold)} (${resolutions.cold} refs resolved)`);
console.log(`editor: one line changed                  ${r(edit)} (${resolutions.edit} resolved)   ratio ${(edit / cold).toFixed(3)}x (target <= 0.1x)`);
console.log(`editor: a line inserted at the top        ${r(insert)} (${resolutions.insert} resolved)   ratio ${(insert / cold).toFixed(3)}x`);
console.log(`editor: one target file changed on disk   ${r(touched)} (${resolutions.touched} resolved)   ratio ${(touched / cold).toFixed(3)}x`);
