import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';

interface DriftRefJson {
  line: number;
  ref: string;
  status: string;
  new_ref: string | null;
}

type Edit =
  | { kind: 'insert'; at: number; lines: string[] }
  | { kind: 'delete'; at: number; count: number }
  | { kind: 'replace'; at: number; line: string }
  | { kind: 'move'; from: number; count: number; to: number };

// A small alphabet, so that repeated lines and repeated blocks happen.
const lineArb = fc.integer({ min: 0, max: 11 }).map((n) => `v${n}`);
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), line: lineArb }),
  fc.record({ kind: fc.constant('move' as const), from: fc.nat(), count: fc.integer({ min: 1, max: 4 }), to: fc.nat() }),
);

function applyEdit(lines: string[], e: Edit): string[] {
  const out = [...lines];
  const n = out.length;
  if (e.kind === 'insert') out.splice(e.at % (n + 1), 0, ...e.lines);
  else if (n === 0) return out;
  else if (e.kind === 'delete') out.splice(e.at % n, e.count);
  else if (e.kind === 'replace') out[e.at % n] = e.line;
  else {
    const block = out.splice(e.from % n, e.count);
    out.splice(e.to % (out.length + 1), 0, ...block);
  }
  return out;
}

const REF_RE = /@lib\/f\.js#L\d+(?:-L\d+)?/g;
const spanOf = (ref: string) => {
  const m = /#L(\d+)(?:-L(\d+))?$/.exec(ref)!;
  return { start: Number(m[1]), end: Number(m[2] ?? m[1]) };
};
const slice = (lines: string[], ref: string) => {
  const { start, end } = spanOf(ref);
  return lines.slice(start - 1, end);
};

async function drift(cwd: string, fix: boolean): Promise<DriftRefJson[]> {
  const r = await refcatInProcess(['verify', 'refs', fix ? '--fix' : '--drift', '--json'], { cwd });
  return (JSON.parse(r.stdout) as { drift: { refs: DriftRefJson[] } }).drift.refs;
}

describe('verify refs --drift: properties over random edit scripts (docs/reference.md#drift-verdicts)', () => {
  it('moved refs point at the old text, unchanged refs at identical lines, --fix touches only refs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 6 }),
        fc.array(editArb, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('\n', '\r\n'),
        async (oldLines, refSeeds, edits, eol) => {
          const refs = refSeeds.map(([s, len]) => {
            const start = (s % oldLines.length) + 1;
            const end = Math.min(start + len, oldLines.length);
            return end === start ? `@lib/f.js#L${start}` : `@lib/f.js#L${start}-L${end}`;
          });
          // Refs two to a line, with text around them that --fix must leave alone.
          const docLines: string[] = [];
          for (let i = 0; i < refs.length; i += 2) docLines.push(`- see ${refs[i]}${refs[i + 1] ? ` and ${refs[i + 1]}.` : ''}  `);
          const doc = '# refs' + eol + docLines.join(eol) + eol;
          const newLines = edits.reduce(applyEdit, oldLines);
          const repo = GitRepo.init({ 'lib/f.js': oldLines.join(eol) + eol, 'notes.md': doc });
          repo.commit('edit', { 'lib/f.js': newLines.length > 0 ? newLines.join(eol) + eol : '' });

          const found = await drift(repo.dir, false);
          expect(found.map((r) => r.ref)).toEqual(refs);
          for (const r of found) {
            const old = slice(oldLines, r.ref);
            if (r.status === 'unchanged') expect(slice(newLines, r.ref)).toEqual(old);
            else if (r.status === 'moved') expect(slice(newLines, r.new_ref!)).toEqual(old);
            else expect(r.status).toBe('changed');
            // The text proves it: exactly one copy of the old block elsewhere is `moved` there, no
            // copy is `changed` (several: git's diff picks one, or none).
            const copies = newLines.flatMap((_, i) => (old.every((l, k) => newLines[i + k] === l) ? [i + 1] : []));
            const sameAt = copies.includes(spanOf(r.ref).start);
            if (sameAt) expect(r.status).toBe('unchanged');
            else if (copies.length === 1) expect([r.status, spanOf(r.new_ref!).start]).toEqual(['moved', copies[0]]);
            else if (copies.length === 0) expect(r.status).toBe('changed');
          }

          await drift(repo.dir, true);
          const fixed = repo.read('notes.md');
          expect(fixed.split(REF_RE)).toEqual(doc.split(REF_RE));
          // A moved ref beside a changed one on its line waits for that one's review (docs/reference.md#drift-verdicts).
          const waits = found.map((r, i) => r.status === 'moved' && found[i ^ 1]?.status === 'changed');
          const expected = found.map((r, i) => (r.status === 'moved' && !waits[i] ? r.new_ref! : r.ref));
          expect(fixed.match(REF_RE)).toEqual(expected);

          repo.commit('fix');
          const left = (await drift(repo.dir, false)).filter((r) => r.status === 'moved').map((r) => r.ref);
          expect(left).toEqual(found.filter((_, i) => waits[i]).map((r) => r.ref));
        },
      ),
      { numRuns: 20 },
    );
  }, 180_000); // 20 temp repositories, each committed 3 times and judged 3 times: a busy machine needs minutes
});
