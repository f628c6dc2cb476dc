/**
 * `1234567` as `1,234,567`: what `toLocaleString('en-US')` writes for an integer, without it. The
 * first `toLocaleString` of a process loads ICU's locale data, 12-17 ms (40 ms beside a second
 * thread), which an outline's headers and `--tokens`' summary paid for every run.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
  return n < 0 ? `-${out}` : out;
}
