import { findPatternEnd } from '../ref-spec/parse-ref-spec.js';
import type { ConvDirective, ConversationFile } from './conv-types.js';

/** A ref written in a workflow: a REFCAT ref, or the `@pattern` of a CONTEXT / CONTEXT-OPTIONAL. */
export interface ConvRef {
  kind: 'REFCAT' | 'CONTEXT' | 'CONTEXT-OPTIONAL';
  /** The ref as written. */
  ref: string;
  directive: ConvDirective;
}

/**
 * The refs of a workflow, in order. REFCAT takes several whitespace-separated refs; CONTEXT and
 * CONTEXT-OPTIONAL take one `@pattern` (a value without `@` is inline text, not a ref).
 */
export function convRefs(conv: ConversationFile): ConvRef[] {
  const out: ConvRef[] = [];
  for (const d of conv.directives) {
    if (d.name === 'REFCAT') {
      for (const ref of splitRefs(d.value)) out.push({ kind: 'REFCAT', ref, directive: d });
    } else if ((d.name === 'CONTEXT' || d.name === 'CONTEXT-OPTIONAL') && d.value.startsWith('@')) {
      out.push({ kind: d.name, ref: d.value, directive: d });
    }
  }
  return out;
}

/**
 * Split a REFCAT value into refs at whitespace. Decision: a pattern selector may hold spaces
 * (`@app.py#/def main/`), so whitespace between `#/` and the `/` that closes the pattern does not
 * split, provided that closing `/` is followed by whitespace, `:` or the end of the value;
 * otherwise (an unclosed pattern) the value splits at every whitespace and the broken ref is
 * reported by the ref parser.
 */
export function splitRefs(value: string): string[] {
  const refs: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && /\s/.test(value[i]!)) i++;
    if (i >= value.length) break;
    const start = i;
    while (i < value.length && !/\s/.test(value[i]!)) {
      if (value[i] === '#' && value[i + 1] === '/') {
        const close = findPatternEnd(value.slice(i + 1));
        const after = value[i + 1 + close + 1];
        if (close !== -1 && (after === undefined || after === ':' || /\s/.test(after))) {
          i += close + 2;
          continue;
        }
      }
      i++;
    }
    refs.push(value.slice(start, i));
  }
  return refs;
}
