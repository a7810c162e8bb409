/**
 * Bulk changes in VS Code (protocol.md, "Bulk changes"): a command that changed many files at
 * once is one review group. Each new pending group is announced once in a non-modal notification
 * ("40 new files in generated/ wait for review": Accept, Reject, Show files); the commands, the
 * chat card and the CodeLenses atop its files come here to decide it or list its files.
 *
 * Wording and choices are in core/groups.ts; this module only shows them.
 */

import * as vscode from "vscode";
import {
  ANNOUNCE_AFTER_MS,
  GROUP_BUTTONS,
  GroupAnnouncer,
  groupFileItems,
  groupItem,
  groupNotice,
  groupsNotice,
  NOTICES_AT_ONCE,
} from "../core/groups";
import { reviewAuthors } from "../core/sessions";
import type { Store } from "../core/store";
import type * as w from "../wire";
import type { Sidecar } from "./client";
import type { Controller } from "./controller";

type FilePick = vscode.QuickPickItem & { file?: w.ReviewGroupFile; decision?: w.Decision };
/** What a command needs of a group: a group named by id that this window has not heard of yet
 *  (another client's) is still the server's to decide. */
type Chosen = Pick<w.ReviewGroup, "groupId" | "title" | "state">;

export class ReviewGroups implements vscode.Disposable {
  private readonly announcer = new GroupAnnouncer();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store,
    private readonly controller: Controller,
    private readonly sidecar: Sidecar,
  ) {
    this.unsubscribe = store.subscribe((e) => {
      if (e.kind === "review" || e.kind === "reset") this.announceSoon();
    });
  }

  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Announce once review has been quiet a moment: a live look finds a burst while its command
   *  still writes, and a notification's count cannot change once it is shown. */
  private announceSoon(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.announceNew();
    }, ANNOUNCE_AFTER_MS);
  }

  /** One notification per new pending group; a burst of them (an install into many folders)
   *  is one notification that lists them, so the user is not buried in toasts. */
  private announceNew(): void {
    const fresh = this.announcer.take(this.store.groups.values());
    if (fresh.length > NOTICES_AT_ONCE) {
      void vscode.window.showInformationMessage(groupsNotice(fresh), GROUP_BUTTONS.files).then((choice) => {
        if (choice === GROUP_BUTTONS.files) void this.controller.guard("show the bulk change", () => this.showFiles());
      });
      return;
    }
    for (const g of fresh) {
      void vscode.window
        .showInformationMessage(this.notice(g), GROUP_BUTTONS.accept, GROUP_BUTTONS.reject, GROUP_BUTTONS.files)
        .then((choice) => {
          const c = this.controller;
          if (choice === GROUP_BUTTONS.accept)
            void c.guard("accept the bulk change", () => this.decide("accept", g.groupId));
          if (choice === GROUP_BUTTONS.reject)
            void c.guard("reject the bulk change", () => this.decide("reject", g.groupId));
          if (choice === GROUP_BUTTONS.files) void c.guard("show the bulk change", () => this.showFiles(g.groupId));
        });
    }
  }

  /** A group's notification, naming the agent and session it came from while several are open. */
  private notice(g: w.ReviewGroup): string {
    const who = reviewAuthors(this.store, g.sessionId, g.sessions);
    if (who === null || who.length === 0) return groupNotice(g);
    const named = who.map((w) => `${w.agent} in "${w.session}"`);
    return `${named.length > 1 ? `either ${named.join(" or ")}` : (named[0] ?? "")}: ${groupNotice(g)}`;
  }

  /** The group a command means: the one named, else the only pending one, else the user's pick. */
  private async choose(groupId: string | undefined, question: string): Promise<Chosen | undefined> {
    if (groupId !== undefined) return this.store.groups.get(groupId) ?? { groupId, title: groupId, state: "pending" };
    const pending = this.store.pendingGroups();
    if (pending.length === 0) {
      void vscode.window.showInformationMessage("No bulk change waits for review.");
      return undefined;
    }
    if (pending.length === 1) return pending[0];
    const picked = await vscode.window.showQuickPick(
      pending.map((g) => ({ ...groupItem(g), group: g })),
      { title: question, placeHolder: "Choose a bulk change", matchOnDescription: true, matchOnDetail: true },
    );
    return picked?.group;
  }

  /** Accept (keep every file) or reject (put every file back) a bulk change. */
  async decide(decision: w.Decision, groupId?: string): Promise<w.ReviewResult[] | undefined> {
    const group = await this.choose(groupId, `${decision === "accept" ? "Accept" : "Reject"} which bulk change?`);
    if (group === undefined) return undefined;
    if (group.state !== "pending") {
      void vscode.window.showInformationMessage(`${group.title}: already ${group.state}.`);
      return [];
    }
    return this.controller.decide(decision, { groupId: group.groupId });
  }

  /** List a bulk change's files (`acp/reviewGroupFiles`) in a quick pick: picking a file opens
   *  it; the two items on top decide the whole change. Returns what was picked. */
  async showFiles(groupId?: string): Promise<w.ReviewGroupFile | w.ReviewResult[] | undefined> {
    const group = await this.choose(groupId, "Show the files of which bulk change?");
    if (group === undefined) return undefined;
    const files = await this.sidecar.groupFiles(group.groupId);
    const items: FilePick[] = [];
    if (group.state === "pending") {
      const n = files.length;
      items.push(
        { label: `$(check) Accept all ${n} files`, description: "keep them as they are", decision: "accept" },
        { label: `$(discard) Reject all ${n} files`, description: "put them back as they were", decision: "reject" },
        { label: "Files", kind: vscode.QuickPickItemKind.Separator },
      );
    }
    items.push(...groupFileItems(files, (p) => vscode.workspace.asRelativePath(p, false)));
    const picked = await vscode.window.showQuickPick(items, {
      title: group.title,
      placeHolder: "Open a file, or decide the whole change",
      matchOnDescription: true,
    });
    if (picked === undefined) return undefined;
    if (picked.decision !== undefined) return this.decide(picked.decision, group.groupId);
    const file = picked.file;
    if (file === undefined) return undefined;
    if (file.change === "deleted") {
      void vscode.window.showInformationMessage(`${picked.label} was deleted; rejecting the change brings it back.`);
    } else {
      await vscode.commands.executeCommand("vscode.open", vscode.Uri.parse(file.uri), { preview: true });
    }
    return file;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.unsubscribe();
  }
}
