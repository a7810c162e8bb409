/**
 * The session's usage as the chat header shows it: ACP `usage_update` (tokens used of the
 * context window, and the cost so far when the agent reports one), kept by the session mirror in
 * `snapshot.usage`. Nothing when the agent reported nothing, or something without the two
 * required counts.
 */

export interface UsageLabel {
  /** Short, for the header: "53k / 200k tokens (27%) · $0.045". */
  text: string;
  /** Whole, for a hover. */
  title: string;
  /** Share of the context window used, 0-100. */
  percent: number;
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** A token count as a person reads it at a glance: 950, 5.3k, 53k, 1.2M. */
export function tokens(n: number): string {
  const short = (x: number, unit: string): string =>
    `${x < 10 ? x.toFixed(1).replace(/\.0$/, "") : Math.round(x)}${unit}`;
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return short(n / 1000, "k");
  return short(n / 1_000_000, "M");
}

/** An amount in its ISO 4217 currency ("$0.045", "€1.20"); an unknown code is written out. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en", {
      style: "currency",
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: amount !== 0 && Math.abs(amount) < 1 ? 3 : 2,
    }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

export function usageLabel(usage: unknown): UsageLabel | null {
  if (typeof usage !== "object" || usage === null) return null;
  const u = usage as Record<string, unknown>;
  const used = count(u["used"]);
  const size = count(u["size"]);
  if (used === null || size === null) return null;
  const percent = size > 0 ? Math.min(100, Math.round((used / size) * 100)) : 0;
  let text = `${tokens(used)} / ${tokens(size)} tokens (${percent}%)`;
  let title = `${used.toLocaleString("en")} of ${size.toLocaleString("en")} tokens of the context window used (${percent}%)`;
  const cost = u["cost"];
  if (typeof cost === "object" && cost !== null) {
    const c = cost as Record<string, unknown>;
    const amount = c["amount"];
    const currency = c["currency"];
    if (typeof amount === "number" && Number.isFinite(amount) && typeof currency === "string" && currency !== "") {
      text += ` · ${money(amount, currency)}`;
      title += `; cost so far ${money(amount, currency)}`;
    }
  }
  return { text, title, percent };
}
