/**
 * A form the agent asks for (`acp/elicit`, mode "form"): the order its fields are asked in, what
 * each one offers, how typed text becomes a value, and what is still missing. Pure: the quick
 * inputs that ask are in host/elicit.ts. The server checks the answers again before the agent
 * gets them.
 */

import type * as w from "../wire";

export interface Choice {
  value: string;
  title: string;
}

/** Required fields first, then the others, each group in the schema's own order. */
export function fieldOrder(schema: w.ElicitationSchema): string[] {
  const names = Object.keys(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  return [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
}

/** The choices of a single-select field, or of a multi-select field's items. */
export function choicesOf(field: w.ElicitationField): Choice[] {
  const source = field.type === "array" ? (field.items ?? {}) : field;
  if (Array.isArray(source.enum)) return source.enum.map((v) => ({ value: v, title: v }));
  const options = (field.type === "array" ? field.items?.anyOf : field.oneOf) ?? [];
  return options.map((o) => ({ value: o.const, title: o.title || o.const }));
}

export function label(name: string, field: w.ElicitationField): string {
  return field.title || name;
}

/** Each field's declared default: what the form starts with. */
export function defaults(schema: w.ElicitationSchema): Record<string, w.ElicitationValue> {
  const answers: Record<string, w.ElicitationValue> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (field.default !== undefined && field.default !== null) answers[name] = field.default;
  }
  return answers;
}

/** Typed text as the field's value: `{ value }` (undefined: left empty), or `{ error }`. */
export function parseInput(field: w.ElicitationField, text: string): { value?: w.ElicitationValue; error?: string } {
  const trimmed = text.trim();
  if (trimmed === "") return {};
  if (field.type === "number" || field.type === "integer") {
    const n = Number(trimmed);
    if (!Number.isFinite(n)) return { error: "Type a number" };
    if (field.type === "integer" && !Number.isInteger(n)) return { error: "Type a whole number" };
    if (typeof field.minimum === "number" && n < field.minimum) return { error: `At least ${field.minimum}` };
    if (typeof field.maximum === "number" && n > field.maximum) return { error: `At most ${field.maximum}` };
    return { value: n };
  }
  if (typeof field.maxLength === "number" && text.length > field.maxLength)
    return { error: `At most ${field.maxLength} characters` };
  if (typeof field.minLength === "number" && text.length < field.minLength)
    return { error: `At least ${field.minLength} characters` };
  if (field.format === "email" && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text)) return { error: "Type an email address" };
  return { value: text };
}

/** A value as the review shows it. */
export function shown(value: w.ElicitationValue | undefined): string {
  if (value === undefined) return "(empty)";
  if (Array.isArray(value)) return value.join(", ") || "(none)";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}

/** Required fields without an answer. */
export function missing(schema: w.ElicitationSchema, answers: Record<string, w.ElicitationValue>): string[] {
  return (schema.required ?? []).filter((n) => answers[n] === undefined);
}
