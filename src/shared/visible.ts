/**
 * The characters visible() escapes, as the body of a regular expression's class: C0 and C1
 * controls but the tab, DEL, and the bidi and line-separator marks. Printed paths and specs
 * escape them too (format-ref-spec.ts).
 */
export const CONTROL_CHARS = '\\x00-\\x08\\x0a-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[${CONTROL_CHARS}]`, 'g');
const HAS_CONTROL = new RegExp(`[${CONTROL_CHARS}]`);

/**
 * Text from files and refs, echoed in a diagnostic, with its control characters made visible
 * (`\x1b`, `\x00`, `\u202e`): a workflow line holding `ESC ]0;...` must not retitle or clear the
 * terminal that shows the message, nor a NUL or a bidi override hide what the line really says.
 * Tabs stay. Newlines are escaped too: a diagnostic's lines are its own.
 */
export function visible(text: string): string {
  // Most text has none: a test is cheaper than a replace (a glob's header is made for every file).
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
