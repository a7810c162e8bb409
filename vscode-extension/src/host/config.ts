/**
 * Reading the `acp-editor.*` settings through the typed parser, and telling when they change.
 */

import * as vscode from "vscode";
import { parseSettings, type Settings } from "../core/settings";
import type { Log } from "./log";

export const SECTION = "acp-editor";

export function readSettings(log?: Log): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const { settings, problems } = parseSettings((key) => {
    // inspect() tells "unset" from "set to the default", so only values the user wrote are checked.
    const i = config.inspect(key);
    return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
  });
  for (const p of problems) log?.warn(p);
  return settings;
}

export function onSettingsChanged(listener: (settings: Settings) => void, log?: Log): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener(readSettings(log));
  });
}
