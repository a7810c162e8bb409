/**
 * Every VS Code command of the extension (names from protocol.ts COMMANDS, which a unit test
 * checks against package.json). Commands return their results so integration tests can drive
 * the extension through `vscode.commands.executeCommand` alone.
 */

import { chooseRegistryAgent } from "./registry";
import * as vscode from "vscode";
import { CHAT_VIEW, COMMANDS, TRANSCRIPT_COMMAND } from "../protocol";
import type { Store } from "../core/store";
import type { ReviewHunk } from "../wire";
import type { Sidecar } from "./client";
import type { Controller } from "./controller";
import type { ProposedDocs } from "./diffs";
import type { ReviewGroups } from "./groups";
import type { Log } from "./log";
import type { Prompts } from "./prompts";
import { signIn } from "./signIn";
import type { Sessions } from "./sessions";
import type { Worktrees } from "./worktrees";

export interface CommandDeps {
  store: Store;
  sidecar: Sidecar;
  controller: Controller;
  prompts: Prompts;
  docs: ProposedDocs;
  groups: ReviewGroups;
  sessions: Sessions;
  worktrees: Worktrees;
  log: Log;
  restart: () => Promise<boolean>;
  setChatInput: (text: string) => void;
}

/** The file a file-wide command applies to: its argument, else the active editor's. */
function fileArg(arg: unknown): string | undefined {
  if (typeof arg === "string") return arg;
  if (arg instanceof vscode.Uri) return arg.toString();
  return vscode.window.activeTextEditor?.document.uri.toString();
}

/** The pending hunk a hunk command without arguments means: the one at the cursor, else the
 *  file's first (so the commands work from the palette and keybindings too). */
function hunkAtCursor(store: Store): ReviewHunk | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) return undefined;
  const uri = editor.document.uri.toString();
  return store.pendingHunkAt(uri, editor.selection.active.line) ?? store.pendingHunks({ uri })[0];
}

/** Open the current session's transcript (read-only Markdown, kept up to date) in an editor. */
async function openTranscript(sidecar: Sidecar): Promise<string> {
  if (!sidecar.running) throw new Error(sidecar.problem ?? "acp-editor is not running (ACP: Restart the Sidecar)");
  // A VS Code command too: the language client registers the server's commands.
  const result = await vscode.commands.executeCommand<{ uri?: unknown } | undefined>(TRANSCRIPT_COMMAND);
  if (typeof result?.uri !== "string") throw new Error("the sidecar named no transcript");
  await vscode.window.showTextDocument(vscode.Uri.parse(result.uri), { preview: false });
  return result.uri;
}

function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null)
    throw new Error(`no ${what}: give one, or put the cursor on a pending agent change`);
  return value;
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const { controller: c, sidecar } = d;
  const reg = (name: string, run: (...args: unknown[]) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(name, run);
  const str = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);
  return [
    reg(COMMANDS.prompt, async (text?: unknown) => {
      if (typeof text === "string" && text.trim() !== "") return c.guard("prompt", () => c.prompt(text));
      // No text: focus the chat's prompt box, the place where prompts are written.
      await focusPromptBox(d);
      return undefined;
    }),
    // Asks first whether the prompts waiting after the turn go too, when some wait.
    reg(COMMANDS.cancel, () => c.guard("cancel", () => d.prompts.cancel())),
    reg(COMMANDS.newSession, () => c.guard("new session", () => sidecar.newSession())),
    // An agent id (of acp/agents), else the user picks one; the new session comes to the front.
    reg(COMMANDS.newSessionWithAgent, (agent?: unknown) =>
      c.guard("new session", () => d.sessions.newWithAgent(str(agent))),
    ),
    // An agent id, else the user picks one; the session works in a worktree of its own.
    reg(COMMANDS.newSessionInWorktree, (agent?: unknown) =>
      c.guard("new session in its own worktree", () => d.worktrees.newSession(str(agent))),
    ),
    // A session id, else the front session when it has a worktree, else the user picks one.
    reg(COMMANDS.bringBack, (id?: unknown) => c.guard("bring back the changes", () => d.worktrees.bringBack(str(id)))),
    reg(COMMANDS.discardWorktree, (id?: unknown) =>
      c.guard("discard the worktree", () => d.worktrees.discard(str(id))),
    ),
    // A session id, else the user picks one of the live sessions (with their agent and status).
    reg(COMMANDS.switchSession, (id?: unknown) => c.guard("switch session", () => d.sessions.switchSession(str(id)))),
    reg(COMMANDS.loadSession, (id?: unknown) =>
      c.guard("load session", () => (typeof id === "string" ? sidecar.loadSession(id) : c.loadSession())),
    ),
    reg(COMMANDS.setMode, (id?: unknown) => c.guard("set mode", () => c.setMode(str(id)))),
    reg(COMMANDS.forkSession, () => c.guard("fork session", () => forkSession(sidecar))),
    reg(COMMANDS.deleteSession, () => c.guard("delete session", () => deleteSession(sidecar, d.store))),
    reg(COMMANDS.logout, () => c.guard("log out", () => logout(sidecar))),
    // An agent id, else the front session's agent: the sidecar asks how (acp/chooseAuthMethod).
    reg(COMMANDS.signIn, (agent?: unknown) => signIn(sidecar, d.store, str(agent))),
    // A config option id and its value, else picked; a boolean option toggles.
    reg(COMMANDS.setConfigOption, (id?: unknown, value?: unknown) =>
      c.guard("set the option", () => c.setConfigOption(str(id), value)),
    ),
    // A turn number, else the last: after a restart, of the session before (no chat shows it).
    reg(COMMANDS.undoTurn, (turn?: unknown) =>
      c.guard("undo the turn", () => c.restoreCheckpoint(typeof turn === "number" ? turn : undefined)),
    ),
    reg(COMMANDS.toggleFollow, (on?: unknown) =>
      c.guard("follow", () => (typeof on === "boolean" ? sidecar.setFollow(on) : c.toggleFollow())),
    ),
    // true / false, else the other way round; on also turns follow-along on.
    reg(COMMANDS.followAllSessions, (on?: unknown) =>
      c.guard("follow every session", () => c.followAllSessions(typeof on === "boolean" ? on : undefined)),
    ),
    reg(COMMANDS.showDiff, (tool?: unknown, uri?: unknown) =>
      c.guard("show diff", () => d.docs.show(str(tool), str(uri))),
    ),
    reg(COMMANDS.acceptHunk, (id?: unknown) =>
      c.guard("accept hunk", () =>
        c.decide("accept", { hunkId: required(str(id) ?? hunkAtCursor(d.store)?.hunkId, "hunk") }),
      ),
    ),
    reg(COMMANDS.rejectHunk, (id?: unknown) =>
      c.guard("reject hunk", () =>
        c.decide("reject", { hunkId: required(str(id) ?? hunkAtCursor(d.store)?.hunkId, "hunk") }),
      ),
    ),
    reg(COMMANDS.acceptToolCall, (id?: unknown) =>
      c.guard("accept edit", () =>
        c.decide("accept", { toolCallId: required(str(id) ?? hunkAtCursor(d.store)?.toolCallId, "tool call") }),
      ),
    ),
    reg(COMMANDS.rejectToolCall, (id?: unknown) =>
      c.guard("reject edit", () =>
        c.decide("reject", { toolCallId: required(str(id) ?? hunkAtCursor(d.store)?.toolCallId, "tool call") }),
      ),
    ),
    reg(COMMANDS.acceptFile, (uri?: unknown) =>
      c.guard("accept file", () => c.decide("accept", { uri: fileArg(uri) ?? "" })),
    ),
    reg(COMMANDS.rejectFile, (uri?: unknown) =>
      c.guard("reject file", () => c.decide("reject", { uri: fileArg(uri) ?? "" })),
    ),
    reg(COMMANDS.acceptAll, () => c.guard("accept all", () => c.decide("accept", { all: true }))),
    reg(COMMANDS.rejectAll, () => c.guard("reject all", () => c.decide("reject", { all: true }))),
    // A group id (the notification, the chat card and the lenses give one), else the only pending
    // bulk change, else the user picks one.
    reg(COMMANDS.acceptGroup, (id?: unknown) =>
      c.guard("accept the bulk change", () => d.groups.decide("accept", str(id))),
    ),
    reg(COMMANDS.rejectGroup, (id?: unknown) =>
      c.guard("reject the bulk change", () => d.groups.decide("reject", str(id))),
    ),
    reg(COMMANDS.showGroupFiles, (id?: unknown) => c.guard("show the bulk change", () => d.groups.showFiles(str(id)))),
    // A hunk id (a conflict's lens names the other session's change): its lines in an editor.
    reg(COMMANDS.revealHunk, (id?: unknown) =>
      c.guard("show the change", () => revealHunk(d.store, required(str(id), "hunk"))),
    ),
    reg(COMMANDS.attachSelection, () => c.attachSelection()),
    reg(COMMANDS.attachFile, () => c.attachFile()),
    // The selection onto the prompt, then the chat in front to say what to do with it.
    reg(COMMANDS.sendSelection, async () => {
      if (!c.attachSelection()) return false;
      await focusPromptBox(d);
      return true;
    }),
    reg(COMMANDS.openTranscript, () => c.guard("open the transcript", () => openTranscript(sidecar))),
    reg(COMMANDS.restart, () => d.restart()),
    reg(COMMANDS.showLog, () => d.log.show()),
    reg(COMMANDS.focusChat, () => focusPromptBox(d)),
    reg(COMMANDS.chooseRegistryAgent, (id?: unknown) =>
      c.guard("choose an agent", () => chooseRegistryAgent(sidecar, d.log, str(id))),
    ),
  ];
}

/** The chat in front with its prompt box focused: focusing the view alone focuses the webview,
 *  not the box, and the keys typed next were lost (Open the Chat's and Send the Selection's
 *  keybindings). */
async function focusPromptBox(d: CommandDeps): Promise<void> {
  await vscode.commands.executeCommand(`${CHAT_VIEW}.focus`);
  d.setChatInput("");
}

/** Fork the current session (agents that advertise `session/fork`). */
async function forkSession(sidecar: Sidecar): Promise<void> {
  if (!sidecar.canSession("fork")) {
    void vscode.window.showInformationMessage("This agent cannot fork sessions.");
    return;
  }
  const fork = await sidecar.forkSession();
  void vscode.window.showInformationMessage(`Now in ${fork}, a fork of the session.`);
}

/** Delete the current session after asking, keeping it first (no stray click deletes it). */
async function deleteSession(sidecar: Sidecar, store: Store): Promise<void> {
  const sessionId = store.currentSessionId;
  if (sessionId === null) return void vscode.window.showInformationMessage("There is no session to delete.");
  if (!sidecar.canSession("delete"))
    return void vscode.window.showInformationMessage("This agent cannot delete sessions.");
  const message = `Delete session ${sessionId}? The agent forgets it: it can no longer be loaded. Files are not touched.`;
  if ((await vscode.window.showWarningMessage(message, "Keep the Session", "Delete")) !== "Delete") return;
  await sidecar.deleteSession(sessionId);
}

/** Log out of the agent after asking, staying logged in first. */
async function logout(sidecar: Sidecar): Promise<void> {
  if (!sidecar.canLogout()) return void vscode.window.showInformationMessage("This agent cannot log out.");
  const message = "Log out of the agent? New sessions will need you to log in again.";
  if ((await vscode.window.showWarningMessage(message, "Stay Logged In", "Log Out")) !== "Log Out") return;
  await sidecar.logout();
}

/** Show a pending hunk's lines (where it is now) in an editor. */
async function revealHunk(store: Store, hunkId: string): Promise<void> {
  const h = store.review.get(hunkId);
  if (h === undefined) throw new Error(`no change ${hunkId}`);
  const line = h.range?.start.line ?? 0;
  const selection = new vscode.Range(line, 0, line, 0);
  await vscode.window.showTextDocument(vscode.Uri.parse(h.uri), { preview: false, selection });
}
