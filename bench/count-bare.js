#!/usr/bin/env node
// The baseline of bench/suites/05-tokens.js: read the files named on the command line and count
// their tokens with the tokenizer refcat uses, with nothing else (no refs, no markdown).
import fs from 'node:fs';

const [encoding, ...files] = process.argv.slice(2);
const { countTokens } = await import(`gpt-tokenizer/encoding/${encoding}`);
let total = 0;
for (const f of files) total += countTokens(fs.readFileSync(f, 'utf8'), { disallowedSpecial: new Set() });
process.stderr.write(`${total}\n`);
