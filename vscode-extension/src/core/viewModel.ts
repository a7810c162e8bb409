/**
 * What the chat view shows besides the transcript, computed from the store: pure, so the chat
 * webview, the test API and the unit tests see the same thing.
 */

import type { GroupView, ViewExtras, PermissionView } from "../webview/messages";
import type { RequestPermissionParams, ReviewGroup } from "../wire";
import { optionLabel, permissionMessage, toolTitle } from "./format";
import { promptCaps, type AttachmentView } from "./prompt";
import { sessionTabs } from "./sessions";
import { subagentName } from "./subagents";
import type { PendingPermission, Store } from "./store";

/** Who asks a permission question, as its notification and chat card say it: a subagent by
 *  its name (`Subagent “Explore hello.py”`), else the agent's name. */
export function askerOf(params: RequestPermissionParams, agentName?: string): string | undefined {
  return params.subagent ? subagentName(params.subagent.title) : agentName;
}

export function permissionView(p: PendingPermission, agentName?: string): PermissionView {
  const params = p.params;
  return {
    id: p.id,
    sessionId: params.sessionId,
    ...(params.subagent ? { subagent: subagentName(params.subagent.title) } : {}),
    toolCallId: params.toolCall.toolCallId,
    title: toolTitle(params.toolCall),
    message: permissionMessage(params, askerOf(params, agentName)),
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
  // The chat of the session in front shows its subagents' work too.
  const family = store.family(sessionId);
  const ofSession = <T extends { sessionId: string }>(x: T): boolean => sessionId === null || family.has(x.sessionId);
  const terminals: ViewExtras["terminals"] = {};
  for (const t of store.terminals.values()) {
    if (ofSession(t)) terminals[t.terminalId] = { output: t.output, exitStatus: t.exitStatus };
  }
  const review: ViewExtras["review"] = {};
  const diffs: ViewExtras["diffs"] = {};
  const calls = [current, ...[...family].slice(1).map((id) => store.sessions.get(id))].flatMap((s) =>
    Object.keys(s?.toolCalls ?? {}),
  );
  for (const id of calls) {
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
