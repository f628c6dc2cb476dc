// A bare Node copy of stdin to a file: the baseline for `refcat fd read` of stdin (bench 03-fd).
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
await pipeline(process.stdin, fs.createWriteStream(process.argv[2]));
