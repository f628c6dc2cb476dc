import vm from 'node:vm';

/**
 * First index in `lines` whose text matches `re`, or -1. Throws PatternTimeout when the regex
 * runs longer than `budgetMs`.
 *
 * Why a vm context: a catastrophic regex (`/(a+)+$/` on a long line) blocks the event loop inside
 * V8's regex engine, where no JavaScript timer can fire. A vm script's `timeout` is enforced by a
 * watchdog thread that interrupts V8 itself, regex engine included (docs/reference.md#reading-files: must end within 2 s).
 * The loop itself is a function of this realm that the script only calls: looping inside the
 * context would pay for a cross-realm property lookup on every line (20x slower). Lines are
 * searched in batches so the watchdog's fixed cost (~0.1 ms) is paid per batch.
 */
export function findMatch(re: RegExp, lines: readonly string[], budgetMs: number): number {
  const ctx = context();
  ctx.args = [re, lines];
  try {
    return CALL().runInContext(ctx, { timeout: Math.max(1, Math.floor(budgetMs)) }) as number;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new PatternTimeout();
    throw err;
  } finally {
    ctx.args = undefined;
  }
}

export class PatternTimeout extends Error {}

/** CPU time every user-supplied regex of one command may spend, together (docs/reference.md#reading-files). */
export const DEFAULT_PATTERN_BUDGET_MS = 1500;

/** Searches of one batch that the watchdog may stop for lack of CPU before the budget gives up. */
const MAX_ATTEMPTS = 50;

/** Microseconds of CPU time this process has used (a test seam; core reads no other process state). */
export type CpuClock = () => number;
const processCpu: CpuClock = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * One budget for every regex a command runs: all files and refs of one call, `--after` included.
 * It counts the CPU time of the search itself, never wall time lost to other processes: the vm
 * watchdog can only stop a search by wall time, so when it fires on a busy machine before the
 * search has used the budget's CPU time, the CPU time actually used is charged and the batch is
 * searched again with what is left. A catastrophic regex burns CPU and is stopped within the
 * budget; a healthy one on a loaded machine is never failed for being slow.
 */
export class PatternBudget {
  private leftMs: number;

  constructor(
    readonly totalMs: number = DEFAULT_PATTERN_BUDGET_MS,
    private readonly cpu: CpuClock = processCpu,
  ) {
    this.leftMs = totalMs;
  }

  /** First index in `lines` whose text matches `re`, or -1; throws PatternTimeout when spent. */
  search(re: RegExp, lines: readonly string[]): number {
    if (this.leftMs > 0 && backtrackFree(re)) {
      // No watchdog needed, and none paid for (its vm context costs 30-40 ms to make).
      const cpuStart = this.cpu();
      const found = search(re, lines);
      this.charge(cpuStart);
      return found;
    }
    for (let attempt = 1; ; attempt++) {
      // Each retry is charged the CPU it used; the cap only guards against a clock that never moves.
      if (this.leftMs <= 0 || attempt > MAX_ATTEMPTS) throw new PatternTimeout();
      const wall = this.leftMs;
      const cpuStart = this.cpu();
      try {
        const found = findMatch(re, lines, wall);
        this.charge(cpuStart);
        return found;
      } catch (err) {
        if (!(err instanceof PatternTimeout)) throw err;
        const usedMs = this.charge(cpuStart);
        // The watchdog fired by wall time: if the search had most of it as CPU, the budget is spent.
        if (usedMs >= wall * 0.9) {
          this.leftMs = 0;
          throw err;
        }
      }
    }
  }

  private charge(cpuStart: number): number {
    const usedMs = (this.cpu() - cpuStart) / 1000;
    this.leftMs -= usedMs;
    return usedMs;
  }
}

/**
 * Whether V8 matches `re` in time linear in the text: with no quantifier and no alternation, every
 * atom (a character, a class, an assertion, a group, a backreference) matches one way or not at
 * all, so each start position costs at most the pattern's length (a backreference's capture is no
 * longer than the pattern). Escapes and classes are read as one atom; `?` right after `(` opens a
 * group. The `v` flag's nested classes are not read: such a pattern is not called free.
 */
export function backtrackFree(re: RegExp): boolean {
  if (re.flags.includes('v')) return false;
  // `\p{L}` and `\u{1F600}` are one atom only with `u`; without it `\u{3}` repeats a `u`.
  const escapes = re.unicode ? /\\[pPu]\{[^}]*\}|\\k<[^>]*>|\\.|\[(?:\\.|[^\]\\])*\]/gs : /\\k<[^>]*>|\\.|\[(?:\\.|[^\]\\])*\]/gs;
  const atoms = re.source.replace(escapes, 'x');
  return !/[*+{|]|(?<!\()\?/.test(atoms);
}

function search(re: RegExp, lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i]!)) return i;
  return -1;
}

let script: vm.Script | undefined;
function CALL(): vm.Script {
  script ??= new vm.Script('search(args[0], args[1])');
  return script;
}

let sandbox: (vm.Context & { args?: unknown }) | undefined;
function context(): vm.Context & { args?: unknown } {
  sandbox ??= vm.createContext({ search });
  return sandbox;
}
