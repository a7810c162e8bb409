/**
 * The agent's commands in VS Code terminals: one pseudoterminal per agent terminal, fed live from
 * `acp/terminalOutput` and closed off with the exit status. Read-only: typing into it does
 * nothing, because the command's stdin belongs to the agent.
 */

import * as vscode from "vscode";
import type { Store } from "../core/store";
import type { ExitStatus } from "../wire";

/** Terminals want CRLF; agent output mostly has bare LF. */
export function toTerminalText(data: string): string {
  return data.replace(/\r?\n/g, "\r\n");
}

function exitLine(status: ExitStatus): string {
  const how = status.signal !== null ? `killed by ${status.signal}` : `exited with code ${String(status.exitCode)}`;
  return `\r\n\x1b[2m[the command ${how}]\x1b[0m\r\n`;
}

class AgentTerminal {
  private readonly writer = new vscode.EventEmitter<string>();
  /** Output that arrived before VS Code opened the terminal, written on open. */
  private buffer: string[] | null = [];
  readonly terminal: vscode.Terminal;

  constructor(name: string, initial: string) {
    if (initial !== "") this.buffer?.push(toTerminalText(initial));
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writer.event,
      open: () => {
        for (const chunk of this.buffer ?? []) this.writer.fire(chunk);
        this.buffer = null;
      },
      close: () => undefined,
    };
    this.terminal = vscode.window.createTerminal({ name, pty, isTransient: true });
  }

  write(text: string): void {
    if (this.buffer !== null) this.buffer.push(text);
    else this.writer.fire(text);
  }

  dispose(): void {
    this.terminal.dispose();
    this.writer.dispose();
  }
}

export class AgentTerminals implements vscode.Disposable {
  private readonly terminals = new Map<string, AgentTerminal>();
  private readonly unsubscribe: () => void;

  constructor(private readonly store: Store) {
    this.unsubscribe = store.subscribe((e) => {
      if (e.kind !== "terminal") return;
      // A terminal made now starts with everything the store holds, this event's data included.
      if (!this.terminals.has(e.terminalId)) return void this.get(e.terminalId);
      const t = this.get(e.terminalId);
      if (e.data !== undefined) t.write(toTerminalText(e.data));
      if (e.exit !== undefined) t.write(exitLine(e.exit));
    });
  }

  /** The terminal of an agent terminal id; a new one starts with the output known so far. */
  private get(terminalId: string): AgentTerminal {
    let t = this.terminals.get(terminalId);
    if (t === undefined) {
      const known = this.store.terminals.get(terminalId);
      t = new AgentTerminal(`Agent: ${terminalId}`, known?.output ?? "");
      if (known?.exitStatus) t.write(exitLine(known.exitStatus));
      this.terminals.set(terminalId, t);
    }
    return t;
  }

  show(terminalId: string): boolean {
    if (!this.terminals.has(terminalId) && !this.store.terminals.has(terminalId)) return false;
    this.get(terminalId).terminal.show(true);
    return true;
  }

  /** Names of the terminals opened so far (for the test API). */
  names(): string[] {
    return [...this.terminals.values()].map((t) => t.terminal.name);
  }

  dispose(): void {
    this.unsubscribe();
    for (const t of this.terminals.values()) t.dispose();
  }
}
