import type { Context } from '../../shared/context.js';

/** A lockfile pin and where the clone stands, as `refcat aliases --json` and MCP's `aliases` show it (docs/refs.md#refs-at-a-version). */
export interface PinShown {
  ref: string;
  /** The commit the pin names in the clone; null when the clone lacks it. */
  commit: string | null;
  /** The commit the checkout is at (HEAD); null when there is none. */
  checkout: string | null;
  at_pin: boolean;
  /** Why the pin could not be looked up, or null. */
  problem: string | null;
}

/**
 * Each pinned alias's pin and checkout, read from its clone (one git cat-file per repository);
 * null for an alias without a pin or a shadowed one. Without any pin no git process starts, and
 * the git room is not even loaded.
 */
export async function pinStates(rows: readonly { pin?: string; target: string; shadowed: boolean }[], ctx: Context): Promise<(PinShown | null)[]> {
  if (!rows.some((r) => r.pin !== undefined && !r.shadowed)) return rows.map(() => null);
  const { VersionReader } = await import('./version-reader.js');
  const reader = new VersionReader(ctx);
  try {
    return await Promise.all(
      rows.map(async (r) => {
        if (r.pin === undefined || r.shadowed) return null;
        const s = await reader.pinState(r.target, r.pin);
        return { ref: r.pin, commit: s.pinned, checkout: s.head, at_pin: s.pinned !== null && s.pinned === s.head, problem: s.why };
      }),
    );
  } finally {
    reader.close();
  }
}
