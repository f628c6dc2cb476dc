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
