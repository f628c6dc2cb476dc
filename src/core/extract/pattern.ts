import vm from 'node:vm';

/**
 * First index in `lines` whose text matches `re`, or -1. Throws PatternTimeout when the search
 * runs past `deadline` (ms since epoch).
 *
 * Why a vm context: a catastrophic regex (`/(a+)+$/` on a long line) blocks the event loop inside
 * V8's regex engine, where no JavaScript timer can fire. A vm script's `timeout` is enforced by a
 * watchdog thread that interrupts V8 itself, regex engine included (SPEC 2: must end within 2 s).
 * Lines are searched in batches so the watchdog's fixed cost (~0.1 ms) is paid per batch.
 */
export function findMatch(re: RegExp, lines: readonly string[], deadline: number): number {
  const remaining = Math.max(1, Math.floor(deadline - Date.now()));
  const ctx = context();
  ctx.re = re;
  ctx.lines = lines;
  try {
    return SEARCH().runInContext(ctx, { timeout: remaining }) as number;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new PatternTimeout();
    throw err;
  } finally {
    ctx.re = undefined;
    ctx.lines = undefined;
  }
}

export class PatternTimeout extends Error {}

let searchScript: vm.Script | undefined;
function SEARCH(): vm.Script {
  searchScript ??= new vm.Script(
    '(function(){for(var i=0;i<lines.length;i++){if(re.test(lines[i]))return i}return -1})()',
  );
  return searchScript;
}

let sandbox: vm.Context | undefined;
function context(): vm.Context & { re?: RegExp; lines?: readonly string[] } {
  sandbox ??= vm.createContext({});
  return sandbox;
}
