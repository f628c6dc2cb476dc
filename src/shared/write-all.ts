import fs from 'node:fs';

/** All of `bytes` to a descriptor, going on after a short write; a write that takes nothing is an error, not a loop. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) {
    const n = fs.writeSync(fd, bytes, at, bytes.length - at);
    if (n === 0) throw Object.assign(new Error('EIO: the output took no byte'), { code: 'EIO' });
    at += n;
  }
}
