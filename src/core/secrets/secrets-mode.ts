/**
 * What happens to content a secret was found in (docs/refs.md#secrets): `redact` (the default)
 * prints it with each secret replaced, `withhold` leaves it out with a note, `fail` leaves it out
 * with an error (exit 1), `allow` prints it as it is. A file of its own: the flag tables import it
 * without the scanner.
 */
export const SECRETS_MODES = ['redact', 'withhold', 'fail', 'allow'] as const;
export type SecretsMode = (typeof SECRETS_MODES)[number];
