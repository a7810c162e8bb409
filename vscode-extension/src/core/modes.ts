/** Session modes, whichever way the agent offers them (ACP v1 `modes` or v2 config option). */

import type { SessionSnapshot } from "../wire";

/** The modes a session offers: v1's `modes`, else (ACP v2) the values of the config option of
 *  category "mode", as `{id, name, description}`. */
export function modeChoices(snapshot: SessionSnapshot | null | undefined): Record<string, unknown>[] {
  if (!snapshot) return [];
  if (snapshot.modes) return (snapshot.modes.availableModes ?? []).map((m) => (m ?? {}) as Record<string, unknown>);
  for (const o of Array.isArray(snapshot.configOptions) ? snapshot.configOptions : []) {
    const r = (o ?? {}) as Record<string, unknown>;
    if (r["category"] === "mode" && Array.isArray(r["options"])) {
      return (r["options"] as unknown[]).map((v) => {
        const x = (v ?? {}) as Record<string, unknown>;
        return { id: x["value"], name: x["name"], description: x["description"] };
      });
    }
  }
  return [];
}
