/**
 * Signing in to an agent (docs/protocol.md, "Signing in"): the words of the method list
 * (`acp/chooseAuthMethod`: each method with what choosing it does), of the terminal a terminal
 * method runs in (`acp/signInTerminal`), of the agent's sign-in state (`AgentStatus.auth`) beside
 * its name, and of a sign-in that failed.
 *
 * Pure (no vscode): the host, the chat webview and the unit tests read the same words.
 */

import type { AuthMethod, AuthState, SignInTerminalParams } from "../wire";

/** A method as the quick pick lists it: its name, what choosing it does, its description. */
export function authMethodItem(method: AuthMethod): { label: string; description: string; detail: string } {
  const type = typeof method.type === "string" ? method.type : "agent";
  const does =
    type === "terminal"
      ? "opens a terminal: you sign in there"
      : type === "agent"
        ? "the agent signs you in"
        : `a ${type} sign-in`;
  const icon = type === "terminal" ? "$(terminal)" : "$(account)";
  return {
    label: `${icon} ${method.name || method.id}`,
    description: does,
    detail: typeof method.description === "string" ? method.description : "",
  };
}

/** The title of the method list: who asks. */
export function authPickTitle(agent: string | undefined): string {
  return agent ? `Sign in to ${agent}` : "The agent needs you to sign in";
}

/** The integrated terminal's name for a terminal sign-in. */
export function signInTerminalName(params: SignInTerminalParams): string {
  return `Sign in: ${params.agentName || params.agent} (${params.name})`;
}

/** What the terminal's process ended with, as `acp/signInTerminal` answers it: its exit code,
 *  or null when it has none (closed by the user before it ended, or it could not start). */
export function exitCodeOf(exitStatus: { code: number | undefined } | undefined): number | null {
  const code = exitStatus?.code;
  return typeof code === "number" && Number.isInteger(code) ? code : null;
}

/** The agent's own word on its sign-in, as shown beside its name: null when there is nothing to
 *  say (no sign-in needed, or the agent does not say). `needsSignIn`: offer "Sign In…". */
export function authWords(auth: AuthState | null | undefined): { text: string; needsSignIn: boolean } | null {
  if (!auth || typeof auth.state !== "string") return null;
  const label = typeof auth.label === "string" && auth.label.trim() !== "" ? auth.label.trim() : null;
  if (auth.state === "unauthenticated") return { text: label ?? "Not logged in", needsSignIn: true };
  if (auth.state === "authenticated") {
    const account = label ?? activeAccount(auth.accounts);
    return { text: account === null ? "Signed in" : `Signed in: ${account}`, needsSignIn: false };
  }
  return null;
}

function activeAccount(accounts: unknown): string | null {
  const list = Array.isArray(accounts) ? accounts : [];
  const records = list.filter((a): a is Record<string, unknown> => typeof a === "object" && a !== null);
  const chosen = records.find((a) => a["active"] === true) ?? records[0];
  const label = chosen?.["label"] ?? chosen?.["name"];
  return typeof label === "string" && label.trim() !== "" ? label.trim() : null;
}

/** Whether a failure is a sign-in's (the sidecar's message says "sign in"): it is then told as
 *  such, with "Sign In…" to try again. */
export function isSignInFailure(message: string): boolean {
  return /\bsign(ing)?[ -]in\b/i.test(message);
}

/** The message of a sign-in that failed: the sidecar's own words (they give the command line to
 *  run by hand), after a plain sentence. */
export function signInFailureMessage(message: string): string {
  const said = message.replace(/^ACP:\s*/, "").trim();
  return `ACP: not signed in. ${said.charAt(0).toUpperCase()}${said.slice(1)}`;
}

/** The command line the sidecar's message says to run by hand, if it says one. */
export function commandLineIn(message: string): string | null {
  const m = /run in a terminal:\s*(.+?)\s*$/i.exec(message);
  return m?.[1] ?? null;
}
