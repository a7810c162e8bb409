/**
 * What the chat view shows besides the transcript, computed from the store: pure, so the chat
 * webview, the test API and the unit tests see the same thing.
 */

import type { GroupView, ViewExtras, PermissionView } from "../webview/messages";
import type { ReviewGroup } from "../wire";
import { optionLabel, permissionMessage, toolTitle } from "./format";
import { promptCaps, type AttachmentView } from "./prompt";
import { sessionTabs } from "./sessions";
import type { PendingPermission, Store } from "./store";

export function permissionView(p: PendingPermission, agentName?: string): PermissionView {
  const params = p.params;
  return {
    id: p.id,
    toolCallId: params.toolCall.toolCallId,
    title: toolTitle(params.toolCall),
    message: permissionMessage(params, agentName),
    options: params.options.map((o) => ({ optionId: o.optionId, label: optionLabel(o), kind: String(o.kind) })),
    ...(typeof params.command === "string" ? { command: params.command } : {}),
    diffs: (Array.isArray(params.diffs) ? params.diffs : []).map((d) => ({
      uri: d.uri,
      path: d.path,
      added: d.added,
      removed: d.removed,
    })),
  };
}

export function groupView(g: ReviewGroup): GroupView {
  return {
    groupId: g.groupId,
    toolCallId: g.toolCallId,
    title: g.title,
    state: g.state,
    ...(g.message !== undefined ? { message: g.message } : {}),
  };
}

export function agentDisplayName(store: Store): string {
  const info = store.agent?.agentInfo;
  return info?.title ?? info?.name ?? "The agent";
}

export function buildExtras(store: Store, attachments: AttachmentView[], problem: string | null = null): ViewExtras {
  const current = store.current();
  const sessionId = store.currentSessionId;
  const ofSession = <T extends { sessionId: string }>(x: T): boolean => sessionId === null || x.sessionId === sessionId;
  const terminals: ViewExtras["terminals"] = {};
  for (const t of store.terminals.values()) {
    if (ofSession(t)) terminals[t.terminalId] = { output: t.output, exitStatus: t.exitStatus };
  }
  const review: ViewExtras["review"] = {};
  const diffs: ViewExtras["diffs"] = {};
  for (const id of Object.keys(current?.toolCalls ?? {})) {
    const summary = store.reviewSummary(id);
    if (summary.pending + summary.accepted + summary.rejected > 0) review[id] = summary;
    const known = store.diffsOf(id).map((d) => ({ uri: d.uri, path: d.path, added: d.added, removed: d.removed }));
    if (known.length > 0) diffs[id] = known;
  }
  const name = agentDisplayName(store);
  return {
    agent: store.agent,
    problem,
    follow: store.follow,
    busy: sessionId !== null && store.busy.has(sessionId),
    stopReason: sessionId === null ? store.lastStopReason : (store.stopReasons.get(sessionId) ?? null),
    permissions: [...store.permissions.values()].filter((p) => ofSession(p.params)).map((p) => permissionView(p, name)),
    terminals,
    review,
    groups: [...store.groups.values()].filter(ofSession).map(groupView),
    diffs,
    attachments,
    canAttachImages: promptCaps(store.capabilities()).image,
    canListSessions: store.canListSessions(),
    canLoadSessions: store.canLoadSessions(),
    sessions: sessionTabs(store),
  };
}
