/**
 * Signing in to an agent (docs/protocol.md, "Signing in"):
 *
 * - `acp/chooseAuthMethod`: a quick pick of the agent's methods, each saying what choosing it
 *   does (a terminal method opens a terminal; an agent method, the agent signs in itself);
 *   closed when the server withdraws the question.
 * - `acp/signInTerminal`: the agent's own sign-in command (`command` with the method's `env`, in
 *   `cwd`) runs in an integrated terminal the user types into: the program itself, no shell
 *   line (`shellPath`/`shellArgs`). The answer is its exit code once its process ends (the
 *   terminal closes then), null when the terminal is closed before it ends with none.
 * - "ACP: Sign In..." (`acp/signIn`): sign in now, before the agent asks. A sign-in that fails
 *   is said plainly, with the sidecar's words (they give the command line to run by hand).
 */

import * as vscode from "vscode";
import {
  authMethodItem,
  authPickTitle,
  commandLineIn,
  exitCodeOf,
  signInFailureMessage,
  signInTerminalName,
} from "../core/signIn";
import type { Store } from "../core/store";
import type * as w from "../wire";
import type { Sidecar } from "./client";
import type { Log } from "./log";

/** `acp/chooseAuthMethod`: a quick pick that closes when the server withdraws the request; its
 *  title names the agent as it announced itself. */
export const chooseAuthMethod =
  (store: Store) =>
  async (params: w.ChooseAuthMethodParams, token: vscode.CancellationToken): Promise<w.ChooseAuthMethodResult> => {
    const methods = Array.isArray(params.methods) ? params.methods : [];
    const info = params.agent === undefined ? store.agent?.agentInfo : store.agents.get(params.agent)?.agentInfo;
    const picked = await vscode.window.showQuickPick(
      methods.map((m) => ({ ...authMethodItem(m), id: m.id })),
      {
        title: authPickTitle(info?.title ?? info?.name ?? params.agent),
        placeHolder: "Choose how to sign in",
        ignoreFocusOut: true,
        matchOnDescription: true,
      },
      token,
    );
    return { methodId: picked?.id ?? null };
  };

export class SignInTerminals implements vscode.Disposable {
  /** Each sign-in terminal running, and what answers its request when it closes. */
  private readonly running = new Map<vscode.Terminal, (exitCode: number | null) => void>();
  private readonly closed = vscode.window.onDidCloseTerminal((t) => {
    const done = this.running.get(t);
    if (done === undefined) return;
    this.running.delete(t);
    done(exitCodeOf(t.exitStatus));
  });

  constructor(private readonly log: Log) {}

  /** `acp/signInTerminal`: run it where the user types; answer with its exit code. */
  readonly handle = (
    params: w.SignInTerminalParams,
    token: vscode.CancellationToken,
  ): Promise<w.SignInTerminalResult> =>
    new Promise((resolve) => {
      const [program, ...args] = Array.isArray(params.command) ? params.command : [];
      if (program === undefined || program === "") {
        this.log.warn(`acp/signInTerminal for ${params.agent}: no command to run`);
        resolve({ exitCode: null });
        return;
      }
      this.log.info(`signing in to ${params.agent} (${params.name}) in a terminal: ${params.commandLine}`);
      let terminal: vscode.Terminal;
      try {
        terminal = vscode.window.createTerminal({
          name: signInTerminalName(params),
          shellPath: program,
          shellArgs: args,
          env: params.env ?? {},
          ...(typeof params.cwd === "string" && params.cwd !== "" ? { cwd: params.cwd } : {}),
          iconPath: new vscode.ThemeIcon("account"),
          message: `${params.agentName || params.agent}: ${params.name}${params.description ? ` (${params.description})` : ""}. Sign in here; this terminal closes when it is done.`,
        } as vscode.TerminalOptions);
      } catch (error) {
        this.log.error(`acp/signInTerminal: could not open a terminal: ${String(error)}`);
        resolve({ exitCode: null });
        return;
      }
      const withdrawn = token.onCancellationRequested(() => {
        this.log.info(`sign-in terminal for ${params.agent} withdrawn by the server`);
        this.running.delete(terminal);
        terminal.dispose();
        resolve({ exitCode: null });
      });
      this.running.set(terminal, (exitCode) => {
        withdrawn.dispose();
        this.log.info(`sign-in terminal for ${params.agent} ended: exit code ${String(exitCode)}`);
        resolve({ exitCode });
      });
      // In front, with the focus: the user types there.
      terminal.show(false);
    });

  /** The sign-in terminals open now (for the test API). */
  names(): string[] {
    return [...this.running.keys()].map((t) => t.name);
  }

  dispose(): void {
    this.closed.dispose();
    for (const [terminal, done] of this.running) {
      done(null);
      terminal.dispose();
    }
    this.running.clear();
  }
}

/** "ACP: Sign In...": sign in to the agent of the session in front (or the one named) now. */
export async function signIn(sidecar: Sidecar, store: Store, agent?: string): Promise<w.SignInResult | undefined> {
  try {
    const result = await sidecar.signIn(agent);
    const name = store.agents.get(result.agent)?.agentInfo?.title ?? result.agent;
    void vscode.window.showInformationMessage(`ACP: signed in to ${name}.`);
    return result;
  } catch (error) {
    showSignInFailure(error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

export const SIGN_IN_AGAIN = "Sign In…";
export const COPY_COMMAND = "Copy the Command";

/** A sign-in that failed, said plainly with the sidecar's words; "Sign In…" tries again, and
 *  the command line it names can be copied to run by hand. */
export function showSignInFailure(message: string): void {
  const line = commandLineIn(message);
  const buttons = line === null ? [SIGN_IN_AGAIN] : [SIGN_IN_AGAIN, COPY_COMMAND];
  void vscode.window.showErrorMessage(signInFailureMessage(message), ...buttons).then((b) => {
    if (b === SIGN_IN_AGAIN) void vscode.commands.executeCommand("acp-editor.signIn");
    if (b === COPY_COMMAND && line !== null) void vscode.env.clipboard.writeText(line);
  });
}
