/**
 * The agent's questions (`acp/elicit`): a form to fill in, or a web page to open.
 *
 * Nothing takes the keyboard on its own: the question arrives as a non-modal notification that
 * names the agent. For a web page it shows the site and the whole address (and a warning when the
 * site's name can mislead) with "Decline" and "Open"; only "Open" opens it, in the browser
 * (`env.openExternal`). For a form it offers "Answer…" and "Decline"; "Answer…" asks field by
 * field with quick inputs (a quick pick for choices and yes/no, an input box for the rest,
 * defaults filled in), then shows every answer in a review pick: choose one to change it, "Send"
 * or "Decline". Escape in any of them cancels. Closing the notification leaves the question
 * unanswered; the server's withdrawal (the turn was cancelled) closes whatever is open (the
 * CancellationToken).
 *
 * A question of a session that is not in front (several live at once) is first only announced,
 * naming the agent and the session, with "Show": that brings the session to the front, then the
 * question is asked as above. Closing the announcement leaves it unanswered (cancel), as closing
 * the question does.
 */

import * as vscode from "vscode";
import { choicesOf, defaults, fieldOrder, label, missing, parseInput, shown } from "../core/elicitForm";
import { SHOW, askerName, backgroundQuestion, inBackground, sessionTitle } from "../core/sessions";
import type { Store } from "../core/store";
import type * as w from "../wire";
import type { Log } from "./log";

const CANCEL: w.ElicitResult = { action: "cancel" };
/** What `ask` returns when its input was closed unanswered: unlike a string, no answer equals it. */
const DISMISSED = Symbol("dismissed");

export class Elicitations {
  constructor(
    private readonly store: Store,
    private readonly log: Log,
    /** Bring a session to the front and show the chat ("Show" on a background question). */
    private readonly showSession: (sessionId: string) => Promise<void> = async () => {},
  ) {}

  /** Answers the question; while it waits, the store counts it (the status bar says so). */
  readonly handle = async (params: w.ElicitParams, token: vscode.CancellationToken): Promise<w.ElicitResult> => {
    const id = `elicit-${params.requestId}`;
    const sessionId = params.sessionId ?? null;
    this.store.setQuestion(id, true, sessionId);
    try {
      if (sessionId !== null && inBackground(this.store, sessionId)) {
        const what = `${askerName(this.store, sessionId)} asks: ${params.message}`;
        const message = backgroundQuestion(what, sessionTitle(this.store.sessions.get(sessionId)));
        const clicked = await raceToken(vscode.window.showInformationMessage(message, SHOW), token);
        if (clicked !== SHOW || token.isCancellationRequested) return CANCEL;
        await this.showSession(sessionId);
      }
      const answer = params.mode === "url" ? await this.page(params, token) : await this.form(params, token);
      if (token.isCancellationRequested) this.log.info(`${params.requestId}: withdrawn by the server`);
      return answer;
    } finally {
      this.store.setQuestion(id, false);
    }
  };

  private async page(params: w.ElicitParams, token: vscode.CancellationToken): Promise<w.ElicitResult> {
    const lines = [
      `${params.agent} asks you to open a web page in your browser.`,
      params.message,
      `Site: ${params.host ?? "?"}`,
      `Address: ${params.url ?? ""}`,
    ];
    if (params.warning) lines.push(`Careful: ${params.warning}.`);
    const picked = await raceToken(
      vscode.window.showWarningMessage(lines.filter(Boolean).join("\n\n"), "Decline", "Open"),
      token,
    );
    if (picked === "Open" && params.url && !token.isCancellationRequested) {
      const opened = await vscode.env.openExternal(vscode.Uri.parse(params.url, true));
      return opened ? { action: "accept" } : CANCEL;
    }
    return picked === "Decline" ? { action: "decline" } : CANCEL;
  }

  private async form(params: w.ElicitParams, token: vscode.CancellationToken): Promise<w.ElicitResult> {
    const start = await raceToken(
      vscode.window.showInformationMessage(`${params.agent} asks: ${params.message}`, "Answer…", "Decline"),
      token,
    );
    if (start === "Decline") return { action: "decline" };
    if (start !== "Answer…" || token.isCancellationRequested) return CANCEL;
    const schema = params.requestedSchema ?? { properties: {} };
    const answers = defaults(schema);
    for (const name of fieldOrder(schema)) {
      const value = await this.ask(name, schema.properties[name]!, answers[name], token);
      if (value === DISMISSED) return CANCEL;
      setAnswer(answers, name, value);
    }
    return this.review(params, schema, answers, token);
  }

  private async review(
    params: w.ElicitParams,
    schema: w.ElicitationSchema,
    answers: Record<string, w.ElicitationValue>,
    token: vscode.CancellationToken,
  ): Promise<w.ElicitResult> {
    for (;;) {
      const required = new Set(schema.required ?? []);
      type Item = vscode.QuickPickItem & { field?: string; action?: "send" | "decline" };
      const items: Item[] = [
        { label: "Send", action: "send" },
        { label: "Decline", action: "decline" },
        ...fieldOrder(schema).map((name) => ({
          label: `${label(name, schema.properties[name]!)}${required.has(name) ? "*" : ""}: ${shown(answers[name])}`,
          field: name,
        })),
      ];
      const picked = await vscode.window.showQuickPick(
        items,
        {
          title: `${params.agent} asks: ${params.message}`,
          placeHolder: "Your answers: pick one to change it, then Send",
          ignoreFocusOut: true,
        },
        token,
      );
      if (picked === undefined || token.isCancellationRequested) return CANCEL;
      if (picked.action === "decline") return { action: "decline" };
      if (picked.action === "send") {
        const left = missing(schema, answers);
        if (left.length === 0) return { action: "accept", content: answers };
        void vscode.window.showWarningMessage(`Still to answer: ${left.join(", ")}`);
        continue;
      }
      const name = picked.field!;
      const value = await this.ask(name, schema.properties[name]!, answers[name], token);
      if (value !== DISMISSED) setAnswer(answers, name, value);
    }
  }

  /** One field's new value (undefined: left empty), or DISMISSED. */
  private async ask(
    name: string,
    field: w.ElicitationField,
    current: w.ElicitationValue | undefined,
    token: vscode.CancellationToken,
  ): Promise<w.ElicitationValue | undefined | typeof DISMISSED> {
    const title = field.description ? `${label(name, field)}: ${field.description}` : label(name, field);
    const options = { title, ignoreFocusOut: true };
    const choices = choicesOf(field);
    if (field.type === "boolean") {
      const picked = await vscode.window.showQuickPick(["Yes", "No"], options, token);
      return picked === undefined ? DISMISSED : picked === "Yes";
    }
    if (field.type === "array" && choices.length > 0) {
      const chosen = new Set(Array.isArray(current) ? current : []);
      const picked = await vscode.window.showQuickPick(
        choices.map((c) => ({ label: c.title, value: c.value, picked: chosen.has(c.value) })),
        { ...options, canPickMany: true },
        token,
      );
      return picked === undefined ? DISMISSED : picked.map((p) => p.value);
    }
    if (choices.length > 0) {
      const picked = await vscode.window.showQuickPick(
        choices.map((c) => ({ label: c.title, value: c.value })),
        options,
        token,
      );
      return picked === undefined ? DISMISSED : picked.value;
    }
    const text = await vscode.window.showInputBox(
      {
        ...options,
        value: current === undefined ? "" : shown(current),
        validateInput: (t) => parseInput(field, t).error,
      },
      token,
    );
    return text === undefined ? DISMISSED : parseInput(field, text).value;
  }
}

function setAnswer(
  answers: Record<string, w.ElicitationValue>,
  name: string,
  value: w.ElicitationValue | undefined,
): void {
  if (value === undefined) delete answers[name];
  else answers[name] = value;
}

/** A notification's answer, or undefined once the server withdrew the question. */
function raceToken<T>(shown: Thenable<T | undefined>, token: vscode.CancellationToken): Promise<T | undefined> {
  return new Promise((resolve) => {
    const withdrawn = token.onCancellationRequested(() => resolve(undefined));
    void Promise.resolve(shown).then((value) => {
      withdrawn.dispose();
      resolve(value);
    });
  });
}
