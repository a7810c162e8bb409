/**
 * A permission question as a notification: at most three buttons, each drawn whole, and a quick
 * pick behind "More…" with everything the question offers.
 *
 * A notification is about 450 px wide whatever the window's size, and VS Code squeezes its
 * buttons to fit: five of them were drawn "Allow on…", "Always all…", "Rej…". So the
 * notification carries the one-off answers and "More…"; the quick pick (and the chat card) have
 * every option worded in full, the diff and the command. Pure (no vscode) for the unit tests.
 */

import type { PermissionOption } from "../wire";
import { buttonLabel, optionLabel } from "./format";

/** More buttons than this are cut off in a notification. */
export const MAX_BUTTONS = 3;
export const MORE = "More…";

/** What a question can show besides its options. */
export type Extra = "diff" | "command" | "chat";

const EXTRA_BUTTONS: Readonly<Record<Extra, string>> = {
  diff: "Show diff",
  command: "Show command",
  chat: "Open the chat",
};

const EXTRA_ITEMS: Readonly<Record<Extra, string>> = {
  diff: "$(diff) Show the proposed diff",
  command: "$(terminal) Show the whole command",
  chat: "$(comment-discussion) Answer in the chat",
};

const KIND_ICONS: Readonly<Record<string, string>> = {
  allow_once: "$(check)",
  allow_always: "$(check-all)",
  reject_once: "$(close)",
  reject_always: "$(circle-slash)",
};

/** A button or a quick pick item: an option to answer with, an extra, or "More…". */
export interface Choice {
  title: string;
  optionId?: string;
  extra?: Extra;
  more?: true;
}

/**
 * The notification's buttons. Everything when options and extras fit in three buttons; else the
 * one-off allow and reject ("Allow once", "Reject"; the first options when the agent offers
 * neither) and "More…". The chat is not a button: it is a click away in "More…" and the status bar.
 */
export function notificationButtons(options: readonly PermissionOption[], extras: readonly Extra[]): Choice[] {
  const button = (o: PermissionOption): Choice => ({ title: buttonLabel(o), optionId: o.optionId });
  const shown = extras.filter((e) => e !== "chat");
  if (options.length + shown.length <= MAX_BUTTONS) {
    return [...options.map(button), ...shown.map((e) => ({ title: EXTRA_BUTTONS[e], extra: e }))];
  }
  const oneOff = ["allow_once", "reject_once"]
    .map((kind) => options.find((o) => o.kind === kind))
    .filter((o): o is PermissionOption => o !== undefined);
  const direct = oneOff.length > 0 ? oneOff : options.slice(0, MAX_BUTTONS - 1);
  return [...direct.map(button), { title: MORE, more: true }];
}

/** "More…"'s quick pick: every option worded in full, in the agent's order, then the extras. */
export function moreChoices(options: readonly PermissionOption[], extras: readonly Extra[]): Choice[] {
  const items: Choice[] = options.map((o) => {
    const label = optionLabel(o);
    const icon = KIND_ICONS[o.kind];
    return { title: icon === undefined ? label : `${icon} ${label}`, optionId: o.optionId };
  });
  return [...items, ...extras.map((e) => ({ title: EXTRA_ITEMS[e], extra: e }))];
}
