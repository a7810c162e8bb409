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

/** A config option as a list of options shows it: a boolean one as a toggle ("on"/"off": picking
 *  it sets the other), a select one with its current value's name and its values. */
export interface ConfigChoice {
  id: string;
  name: string;
  type: "boolean" | "select";
  /** A boolean's state, or a select's current value id. */
  current: boolean | string | null;
  label: string;
  description: string;
  /** A select's values (groups flattened). */
  values: { value: string; name: string; description: string }[];
}

function flatValues(options: unknown): { value: string; name: string; description: string }[] {
  return (Array.isArray(options) ? options : []).flatMap((o) => {
    const r = (o ?? {}) as Record<string, unknown>;
    if (Array.isArray(r["options"])) return flatValues(r["options"]);
    if (typeof r["value"] !== "string") return [];
    const name = typeof r["name"] === "string" && r["name"] !== "" ? r["name"] : r["value"];
    return [{ value: r["value"], name, description: typeof r["description"] === "string" ? r["description"] : "" }];
  });
}

/** The session's config options the user can set (select and boolean ones), as choices. */
export function configChoices(snapshot: SessionSnapshot | null | undefined): ConfigChoice[] {
  return (Array.isArray(snapshot?.configOptions) ? snapshot.configOptions : []).flatMap((o): ConfigChoice[] => {
    const r = (o ?? {}) as Record<string, unknown>;
    const id = typeof r["id"] === "string" ? r["id"] : "";
    if (id === "") return [];
    const name = typeof r["name"] === "string" && r["name"] !== "" ? r["name"] : id;
    const about = typeof r["description"] === "string" ? r["description"] : "";
    if (r["type"] === "boolean") {
      const on = r["currentValue"] === true;
      return [
        {
          id,
          name,
          type: "boolean" as const,
          current: on,
          label: `${on ? "$(pass-filled)" : "$(circle-large-outline)"} ${name}: ${on ? "on" : "off"}`,
          description: about ? `${about} · pick to turn ${on ? "off" : "on"}` : `pick to turn ${on ? "off" : "on"}`,
          values: [],
        },
      ];
    }
    if (r["type"] !== "select") return [];
    const values = flatValues(r["options"]);
    const current = typeof r["currentValue"] === "string" ? r["currentValue"] : null;
    const shown = values.find((v) => v.value === current)?.name ?? current ?? "";
    return [
      {
        id,
        name,
        type: "select" as const,
        current,
        label: `$(settings-gear) ${name}: ${shown}`,
        description: about,
        values,
      },
    ];
  });
}
