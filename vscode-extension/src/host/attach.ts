/**
 * What the chat's prompt attaches from VS Code: a file (and its text when the prompt is sent:
 * the open buffer's, unsaved edits included, else the disk's), the selection, a file's problems
 * (every language server's and linter's diagnostics, as text), a web page, an image; and the
 * "+ …" list that offers the ones without a button of their own.
 *
 * The attachments themselves and the blocks they become are pure (`core/prompt.ts`).
 */

import * as vscode from "vscode";
import {
  IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  droppedFile,
  problemsText,
  webAddress,
  type Attachment,
  type PromptCaps,
} from "../core/prompt";
import { diagnostics } from "./editorContext";

/** At most this much of a file goes into a prompt as text; a bigger one goes as its link only. */
export const MAX_EMBEDDED_BYTES = 256 * 1024;

const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

export function fileAttachment(uri: vscode.Uri, name?: string): Attachment {
  return { kind: "file", uri: uri.toString(), name: name ?? vscode.workspace.asRelativePath(uri) };
}

/** A file dragged onto the chat (its URI as the workbench gives it), as this machine's file, or
 *  null when it is none of this machine's (see droppedFile). */
export function droppedAttachment(text: string): Attachment | null {
  const uri = vscode.Uri.parse(text);
  switch (droppedFile(uri.scheme, vscode.env.remoteName !== undefined)) {
    case "file":
      return fileAttachment(uri);
    case "path":
      return fileAttachment(vscode.Uri.file(uri.path));
    default:
      return null;
  }
}

/** The active editor's selection, or why there is none. */
export function selectionAttachment(): Attachment | string {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.selection.isEmpty) return "Select some text in an editor first.";
  const sel = editor.selection;
  const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  return {
    kind: "selection",
    uri: editor.document.uri.toString(),
    name: vscode.workspace.asRelativePath(editor.document.uri),
    startLine: sel.start.line,
    endLine,
    text: editor.document.getText(sel),
    languageId: editor.document.languageId,
  };
}

/** The active editor's file, or why there is none. */
export function currentFileAttachment(): Attachment | string {
  const doc = vscode.window.activeTextEditor?.document;
  return doc === undefined ? "Open a file in an editor first." : fileAttachment(doc.uri);
}

/** A file's problems as they are now, as text (acp-editor's own review marks left out). */
export function problemsAttachment(uri: vscode.Uri): Attachment {
  const name = vscode.workspace.asRelativePath(uri);
  const found = diagnostics({ path: uri.fsPath }).diagnostics;
  return { kind: "problems", uri: uri.toString(), name, count: found.length, text: problemsText(name, found) };
}

export function urlAttachment(text: string): Attachment | null {
  const url = webAddress(text);
  return url === null ? null : { kind: "url", url };
}

/** An image the webview read (pasted or dropped), checked again here: the webview is not trusted more than that. */
export function imageAttachment(name: string, mimeType: string, data: string): Attachment | string {
  if (!IMAGE_TYPES.includes(mimeType)) return `${mimeType} is not an image type agents read (PNG, JPEG, GIF, WebP).`;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return "The image's data is not base64.";
  if ((data.length * 3) / 4 > MAX_IMAGE_BYTES) return `${name} is over ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`;
  return { kind: "image", name, mimeType, data };
}

async function readImage(uri: vscode.Uri): Promise<Attachment | string> {
  const ext = uri.path.slice(uri.path.lastIndexOf(".") + 1).toLowerCase();
  const mimeType = IMAGE_EXTENSIONS[ext];
  const name = uri.path.slice(uri.path.lastIndexOf("/") + 1);
  if (mimeType === undefined) return `${name} is not a PNG, JPEG, GIF or WebP image.`;
  const bytes = await vscode.workspace.fs.readFile(uri);
  return imageAttachment(name, mimeType, Buffer.from(bytes).toString("base64"));
}

/** A file's text for an embedded resource: the open buffer's, else the disk's when it is text
 *  (UTF-8, no NUL) and not too big; undefined otherwise (the file then goes as its link only). */
async function fileText(uri: vscode.Uri): Promise<{ text: string; languageId?: string } | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open !== undefined) {
    const text = open.getText();
    return text.length <= MAX_EMBEDDED_BYTES ? { text, languageId: open.languageId } : undefined;
  }
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_EMBEDDED_BYTES) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.includes(0)) return undefined;
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return undefined; // gone, unreadable or not UTF-8: the link still says which file
  }
}

/** The attachments as the prompt sends them: files carry their text when the agent embeds it. */
export async function withTexts(attachments: readonly Attachment[], caps: PromptCaps): Promise<Attachment[]> {
  return Promise.all(
    attachments.map(async (a) => {
      if (a.kind !== "file" || !caps.embeddedContext) return a;
      const found = await fileText(vscode.Uri.parse(a.uri));
      return found === undefined ? a : { ...a, ...found };
    }),
  );
}

/** Files with problems now, most first (for "Problems of a file…"). */
function filesWithProblems(): { uri: vscode.Uri; count: number }[] {
  return vscode.languages
    .getDiagnostics()
    .filter(([uri]) => uri.scheme === "file")
    .map(([uri, list]) => ({ uri, count: list.filter((d) => d.source !== "acp").length }))
    .filter((f) => f.count > 0)
    .sort((a, b) => b.count - a.count);
}

interface MoreItem extends vscode.QuickPickItem {
  run(): Promise<Attachment | string | undefined>;
}

/** "+ …": everything the prompt can attach that has no button of its own. Resolves with what to
 *  attach, a reason it cannot be, or undefined when the user changed their mind. */
export async function pickMore(caps: PromptCaps): Promise<Attachment | string | undefined> {
  const current = vscode.window.activeTextEditor?.document.uri;
  const items: MoreItem[] = [];
  if (current !== undefined && current.scheme === "file") {
    items.push({
      label: "$(warning) Problems of the current file",
      description: vscode.workspace.asRelativePath(current),
      run: () => Promise.resolve(problemsAttachment(current)),
    });
  }
  items.push(
    {
      label: "$(warning) Problems of a file…",
      run: async () => {
        const files = filesWithProblems();
        if (files.length === 0) return "No file has problems now.";
        const picked = await vscode.window.showQuickPick(
          files.map((f) => ({ label: vscode.workspace.asRelativePath(f.uri), description: `${f.count}`, uri: f.uri })),
          { title: "Attach the problems of a file" },
        );
        return picked && problemsAttachment(picked.uri);
      },
    },
    {
      label: "$(link) A web page…",
      description: "or type @https://… in the prompt",
      run: async () => {
        const text = await vscode.window.showInputBox({
          title: "Attach a web page",
          prompt: "The page's address (http or https); the agent gets it as a link",
          placeHolder: "https://",
          validateInput: (v) => (v.trim() === "" || webAddress(v) !== null ? null : "An http(s) address, please"),
        });
        return text === undefined || text.trim() === "" ? undefined : (urlAttachment(text) ?? undefined);
      },
    },
    {
      label: "$(file) A file…",
      description: "or type @ in the prompt",
      run: async () => {
        const picked = await vscode.window.showOpenDialog({
          canSelectMany: false,
          defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
          title: "Attach a file",
        });
        return picked?.[0] && fileAttachment(picked[0]);
      },
    },
  );
  if (caps.image) {
    items.push({
      label: "$(file-media) An image…",
      description: "or paste or drop one into the prompt",
      run: async () => {
        const picked = await vscode.window.showOpenDialog({
          canSelectMany: false,
          filters: { Images: Object.keys(IMAGE_EXTENSIONS) },
          title: "Attach an image",
        });
        return picked?.[0] && readImage(picked[0]);
      },
    });
  }
  const chosen = await vscode.window.showQuickPick(items, { title: "Attach to the prompt" });
  return chosen?.run();
}
