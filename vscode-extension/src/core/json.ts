/**
 * Reading the loosely typed JSON of the wire (content blocks, plans, modes, the agent's own
 * fields): values a schema says are strings, but that an agent may send as anything.
 */

/** `value` as text: a string as it is, a number or boolean spelled out; anything else (absent,
 *  null, an object or a list) is `fallback`, never "[object Object]". */
export function stringOf(value: unknown, fallback = ""): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return fallback;
}
