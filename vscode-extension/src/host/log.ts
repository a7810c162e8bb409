/**
 * The "ACP Editor" output channel: the sidecar's stderr and `window/logMessage` (through the
 * language client) and the extension's own lines, in one place the user can open.
 */

import * as vscode from "vscode";

export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor(name = "ACP Editor") {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string): void {
    this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
