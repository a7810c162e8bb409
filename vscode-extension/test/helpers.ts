/** Paths shared by the unit tests (they run from out/test/, compiled). */
import * as path from "node:path";

import type { ViewExtras } from "../src/webview/messages";

/** vscode-extension/ */
export const ROOT = path.resolve(__dirname, "..", "..");
/** The repository root. */
export const REPO = path.resolve(ROOT, "..");

/** What the chat is drawn with besides the session: nothing going on, unless ``over`` says. */
export const viewExtras = (over: Partial<ViewExtras> = {}): ViewExtras => ({
  agent: null,
  problem: null,
  follow: true,
  busy: false,
  stopReason: null,
  permissions: [],
  terminals: {},
  review: {},
  groups: [],
  diffs: {},
  attachments: [],
  canAttachImages: false,
  canListSessions: false,
  canLoadSessions: false,
  sessions: [],
  ...over,
});
