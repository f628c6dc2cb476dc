// Issue 3 target: `refcat validate` on 1,000 generated workflows with 10 refs each (to real files),
// in one call, well under 5 ms per workflow.
import fs from 'node:fs';
import path from 'node:path';
import { compare, ensureTmp, fmt, refcatCmd, timeOnce } from '../lib.js';

const WORKFLOWS = 1000;
const REFS = 10;
const SOURCES = 50;
const root = path.join(ensureTmp(), 'validate');
const flows = path.join(root, 'flows');

function generate() {
  const marker = path.join(root, `.done-${WORKFLOWS}-${REFS}`);
  if (fs.existsSync(marker)) return;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(flows, { recursive: true });
  for (let s = 0; s < SOURCES; s++) {
    let text = '';
    for (let l = 1; l <= 200; l++) text += l % 20 === 1 ? `def handler_${s}_${l}(event):\n` : `    value_${l} = compute(${l})\n`;
    fs.writeFileSync(path.join(root, 'src', `mod${s}.py`), text);
  }
  for (let w = 0; w < WORKFLOWS; w++) {
    const src = (k) => `@../src/mod${(w + k) % SOURCES}.py`;
    const lines = ['MODEL gpt-4', 'ADAPTER mock', 'MAX-CYCLES 2', 'CONTEXT-LIMIT 80%', 'ON-CONTEXT-LIMIT compact'];
    lines.push(`CONTEXT ${src(0)}`, `CONTEXT-OPTIONAL ${src(1)}`);
    lines.push(`REFCAT ${src(2)}#L1-L20 ${src(3)}#L50-L80 ${src(4)}#L100`);
    lines.push(`REFCAT ${src(5)}#L150-L200 ${src(6)}#L10:-5..+5 ${src(7)}`);
    lines.push(`REFCAT ${src(8)}#/def handler_/:+10 ${src(9)}#/value_42/:-2..+2`);
    lines.push('PROMPT ## Review', 'Review the code above and list the risks.', '', 'RUN echo ok', 'ELIDE', 'PROMPT Summarize.');
    fs.writeFileSync(path.join(flows, `flow${String(w).padStart(4, '0')}.conv`), lines.join('\n') + '\n');
  }
  fs.writeFileSync(marker, '');
}

process.stdout.write(`preparing ${WORKFLOWS} workflows x ${REFS} refs (once, kept in .bench-tmp/validate/) ... `);
generate();
console.log('done');

const cmd = refcatCmd('validate', flows);
timeOnce(cmd); // also checks that every generated workflow is valid (exit 0)
const [total] = compare([cmd], 7);
const per = total / WORKFLOWS;
console.log(`validate ${WORKFLOWS} workflows  ${fmt(total)} in one call   ${per.toFixed(3)} ms per workflow (target: well under 5 ms)`);
