/**
 * Entry point: only wiring. Each piece lives in its own module (see README "Layout"); this file
 * creates them in dependency order, starts the sidecar, and returns the test API.
 */

import * as vscode from "vscode";
import { needsRestart, type Settings } from "./core/settings";
import { Store } from "./core/store";
import { ChatView } from "./host/chatView";
import { ChatPresence } from "./host/chatPresence";
import { BundledSidecar } from "./host/bundled";
import { Sidecar } from "./host/client";
import { registerCommands } from "./host/commands";
import { onSettingsChanged, readSettings } from "./host/config";
import { ContextKeys } from "./host/contextKeys";
import { Controller } from "./host/controller";
import { ProposedDocs } from "./host/diffs";
import { FollowView } from "./host/follow";
import { Log } from "./host/log";
import { Elicitations } from "./host/elicit";
import { ReviewGroups } from "./host/groups";
import { TurnNotices } from "./host/notices";
import { Permissions } from "./host/permissions";
import { SignInTerminals, chooseAuthMethod } from "./host/signIn";
import { Prompts } from "./host/prompts";
import { InlineReview } from "./host/review";
import { Sessions } from "./host/sessions";
import { Worktrees } from "./host/worktrees";
import { AgentStatusItem } from "./host/statusBar";
import { AgentTerminals } from "./host/terminals";
import { createApi, type AcpEditorApi } from "./host/testApi";

let sidecar: Sidecar | null = null;

export function activate(context: vscode.ExtensionContext): AcpEditorApi {
  const log = new Log();
  const store = new Store();
  const docs = new ProposedDocs(store);
  // A question asked in a session not in front is announced with "Show", which brings the session
  // to the front (`sessions` exists by the time anyone clicks it).
  const showSession = (sessionId: string): Promise<void> => sessions.show(sessionId);
  const permissions = new Permissions(store, docs, log, showSession);
  const follow = new FollowView(store, log);
  const bundled = new BundledSidecar(context.extensionPath, context.globalStorageUri.fsPath, log);
  const elicitations = new Elicitations(store, log, showSession);
  const signInTerminals = new SignInTerminals(log);
  sidecar = new Sidecar(
    store,
    log,
    {
      permission: permissions.handle,
      auth: chooseAuthMethod(store),
      signInTerminal: signInTerminals.handle,
      elicit: elicitations.handle,
      follow: (p) => void follow.show(p),
    },
    bundled,
  );
  const side = sidecar;
  const sessions = new Sessions(store, side, log);
  const worktrees = new Worktrees(store, side, sessions, log);
  const controller = new Controller(store, side, log);
  const prompts = new Prompts(store, side, controller);
  const terminals = new AgentTerminals(store);
  const groups = new ReviewGroups(store, controller, side);
  const chat = new ChatView(context.extensionUri, {
    store,
    sidecar: side,
    controller,
    prompts,
    permissions,
    docs,
    terminals,
    groups,
    sessions,
    worktrees,
  });
  const presence = new ChatPresence();
  presence.watch(chat);
  const status = new AgentStatusItem(store, () => side.problem);
  let settings: Settings = readSettings(log);

  let problemShown = false;
  const startNow = async (): Promise<boolean> => {
    permissions.clear();
    const ok = await side.start(settings);
    // A new sidecar follows only the session in front: every session, when the setting says so.
    if (ok && settings.followAllSessions)
      await side.setFollow(store.follow, true).catch((error: unknown) => log.warn(`acp/setFollow: ${String(error)}`));
    if (ok && problemShown) {
      problemShown = false; // the "did not start" toast is stale now: take it away
      void vscode.commands.executeCommand("notifications.hideToasts");
    }
    chat.refresh();
    status.update();
    if (settings.trace) log.show();
    if (!ok) {
      problemShown = true;
      // Not awaited: `ready` must settle even when nobody clicks the message.
      void vscode.window
        .showErrorMessage(`ACP: ${side.problem ?? "acp-editor did not start"}`, "Open settings", "Show log")
        .then((choice) => {
          if (choice === "Open settings")
            void vscode.commands.executeCommand("workbench.action.openSettings", "acp-editor");
          if (choice === "Show log") log.show();
        });
    }
    return ok;
  };
  // One start at a time: settings changed twice in a row (or a restart during a start) would
  // otherwise stop a sidecar still starting and leave the views on neither. Each waits for the
  // one before it, then starts with the settings of that moment.
  let starting: Promise<boolean> = Promise.resolve(true);
  const start = (): Promise<boolean> => (starting = starting.then(startNow, startNow));

  context.subscriptions.push(
    log,
    docs,
    follow,
    signInTerminals,
    side,
    controller,
    terminals,
    groups,
    chat,
    status,
    new TurnNotices(store, presence, log, () => settings.turnEndNotice),
    new ContextKeys(store),
    new InlineReview(store),
    ...registerCommands({
      store,
      sidecar: side,
      controller,
      prompts,
      docs,
      groups,
      sessions,
      worktrees,
      log,
      restart: start,
      setChatInput: (t) => chat.setInput(t),
    }),
    onSettingsChanged((next) => {
      const restart = needsRestart(settings, next);
      const followChanged = next.follow !== settings.follow;
      const allChanged = next.followAllSessions !== settings.followAllSessions;
      settings = next;
      if (restart) void start();
      else if ((followChanged || allChanged) && side.running)
        void side.setFollow(
          followChanged ? next.follow : store.follow,
          allChanged ? next.followAllSessions : undefined,
        );
    }, log),
  );
  return createApi({
    ready: start(),
    store,
    sidecar: side,
    controller,
    prompts,
    permissions,
    docs,
    follow,
    terminals,
    presence,
    sessions,
    signInTerminals,
  });
}

export async function deactivate(): Promise<void> {
  await sidecar?.stop();
  sidecar = null;
}
