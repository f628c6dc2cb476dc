import { closest } from '../../shared/did-you-mean.js';
/**
 * The directive vocabulary of `.conv` workflows (docs/reference.md#the-conv-format): sdqctl's set plus ALIAS.
 * Kept as data so that the parser, the validator and did-you-mean all read the same table.
 */
export const KNOWN_DIRECTIVES: readonly string[] = [
  'MODEL', 'ADAPTER', 'MODE', 'MAX-CYCLES', 'CWD', 'SESSION-NAME',
  'MODEL-REQUIRES', 'MODEL-PREFERS', 'MODEL-POLICY',
  'CONTEXT', 'CONTEXT-OPTIONAL', 'CONTEXT-EXCLUDE', 'CONTEXT-LIMIT', 'ON-CONTEXT-LIMIT',
  'VALIDATION-MODE', 'ALLOW-FILES', 'DENY-FILES', 'ALLOW-DIR', 'DENY-DIR',
  'PROLOGUE', 'EPILOGUE', 'PROMPT', 'ON-CONTEXT-LIMIT-PROMPT',
  'COMPACT', 'COMPACT-PRESERVE', 'COMPACT-SUMMARY', 'COMPACT-PROLOGUE', 'COMPACT-EPILOGUE',
  'NEW-CONVERSATION', 'INFINITE-SESSIONS', 'COMPACTION-MIN', 'COMPACTION-THRESHOLD', 'COMPACTION-MAX',
  'ELIDE', 'CHECKPOINT', 'CHECKPOINT-AFTER', 'CHECKPOINT-NAME',
  'HEADER', 'FOOTER', 'OUTPUT', 'OUTPUT-FORMAT', 'OUTPUT-FILE', 'OUTPUT-DIR',
  'RUN', 'RUN-ON-ERROR', 'RUN-OUTPUT', 'RUN-OUTPUT-LIMIT', 'RUN-ENV', 'RUN-CWD', 'ALLOW-SHELL',
  'RUN-TIMEOUT', 'RUN-ASYNC', 'RUN-WAIT', 'RUN-RETRY',
  'VERIFY', 'VERIFY-ON-ERROR', 'VERIFY-OUTPUT', 'VERIFY-LIMIT', 'VERIFY-TRACE', 'VERIFY-COVERAGE',
  'CHECK-REFS', 'CHECK-LINKS', 'CHECK-TRACEABILITY',
  'REFCAT', 'PAUSE', 'CONSULT', 'CONSULT-TIMEOUT',
  'ON-FAILURE', 'ON-SUCCESS', 'END',
  'REQUIRE', 'HELP', 'HELP-INLINE', 'LSP', 'INCLUDE', 'DEBUG', 'DEBUG-INTENTS', 'EVENT-LOG', 'ALIAS',
]; // prettier-ignore

const KNOWN = new Set(KNOWN_DIRECTIVES);

export function isKnownDirective(name: string): boolean {
  return KNOWN.has(name);
}

/** Directives whose value continues on the following lines (docs/reference.md#the-conv-format). */
export const MULTI_LINE_DIRECTIVES: ReadonlySet<string> = new Set(['PROMPT', 'ON-CONTEXT-LIMIT-PROMPT', 'COMPACT-SUMMARY']);

/**
 * Directives that are a step of the conversation (one turn or action, in order), as opposed to
 * settings. ELIDE merges the step before it with the step after it into one AI turn; settings in
 * between do not break the chain.
 */
export const STEP_DIRECTIVES: ReadonlySet<string> = new Set([
  'PROMPT', 'RUN', 'RUN-ASYNC', 'RUN-WAIT', 'VERIFY', 'VERIFY-TRACE', 'VERIFY-COVERAGE',
  'CHECK-REFS', 'CHECK-LINKS', 'CHECK-TRACEABILITY', 'COMPACT', 'NEW-CONVERSATION', 'CHECKPOINT',
  'PAUSE', 'CONSULT', 'LSP', 'HELP-INLINE', 'ELIDE',
]); // prettier-ignore

/** Values allowed for enumerated directives (docs/reference.md#validate). */
export const ALLOWED_VALUES: Readonly<Record<string, readonly string[]>> = {
  'ON-CONTEXT-LIMIT': ['compact', 'stop', 'continue'],
  'CHECKPOINT-AFTER': ['each-cycle', 'each-prompt', 'never'],
  'RUN-ON-ERROR': ['stop', 'continue'],
  'VALIDATION-MODE': ['strict', 'lenient', 'exploratory'],
};

/** The known directive closest to `name`, if it is close enough to be a typo (shared/did-you-mean.ts). */
export function suggestDirective(name: string, maxDistance?: number): string | null {
  return closest(name, KNOWN_DIRECTIVES, maxDistance);
}
