/**
 * What the editor-context MCP server asks of VS Code (`acp/diagnostics`, `acp/selection`): the
 * diagnostics every language server and linter published (`vscode.languages.getDiagnostics`)
 * and the active editor's selection, so an agent sees the errors and the code the user sees.
 */

import * as vscode from "vscode";
import type * as w from "../wire";

const SEVERITY: Record<number, w.EditorDiagnostic["severity"]> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "information",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

function range(r: vscode.Range): w.Range {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

export function diagnostics(params: w.DiagnosticsParams): w.DiagnosticsResult {
  const pairs: [vscode.Uri, readonly vscode.Diagnostic[]][] = params.path
    ? [[vscode.Uri.file(params.path), vscode.languages.getDiagnostics(vscode.Uri.file(params.path))]]
    : vscode.languages.getDiagnostics();
  const found: w.EditorDiagnostic[] = [];
  for (const [uri, list] of pairs) {
    if (uri.scheme !== "file") continue;
    for (const d of list) {
      // acp-editor's own review diagnostics are the agent's changes, not problems in the code.
      if (d.source === "acp") continue;
      const item: w.EditorDiagnostic = {
        path: uri.fsPath,
        range: range(d.range),
        severity: SEVERITY[d.severity] ?? "error",
        message: d.message,
      };
      if (d.source) item.source = d.source;
      const code = typeof d.code === "object" ? d.code.value : d.code;
      if (code !== undefined && code !== "") item.code = String(code);
      found.push(item);
    }
  }
  return { diagnostics: found };
}

export function selection(): w.SelectionResult {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== "file") return null;
  const s = editor.selection;
  return { path: editor.document.uri.fsPath, range: range(s), text: editor.document.getText(s) };
}
