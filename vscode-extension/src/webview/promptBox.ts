/**
 * The chat's prompt box: the completion list (the agent's slash commands, and files or a web
 * address for an `@`-mention, asked of the sidecar at each keystroke), ↑/↓ through earlier
 * prompts, and images pasted or dropped in. What it attaches goes to the host, which keeps the
 * attachments and draws them back as chips.
 *
 * It also edits: a prompt waiting its turn (its text saved with `acp/editPrompt`) and an earlier
 * prompt brought back to be resent (the host then asks where). A line above the box says which,
 * with a × to stop; Escape stops too.
 */

import { escapeHtml as esc } from "../core/markdown";
import { PromptHistory } from "../core/history";
import {
  applyMention,
  mentionAt,
  mentionItems,
  needsFiles,
  splitPath,
  type Mention,
  type MentionItem,
} from "../core/mention";
import { typedText, userMessageAt } from "../core/queue";
import {
  IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  commandItems,
  droppedUris,
  matchCommands,
  type CommandItem,
} from "../core/prompt";
import type { FoundFile, SessionSnapshot } from "../wire";
import type { ViewExtras, ViewMessage } from "./messages";

export interface PromptBoxDeps {
  input: HTMLTextAreaElement;
  list: HTMLElement;
  hint: HTMLElement;
  /** The line above the box saying what Enter does when it is not a new prompt. */
  mode: HTMLElement;
  post(message: ViewMessage): void;
  session(): SessionSnapshot | null;
  extras(): ViewExtras | null;
  /** The user sent a prompt (the transcript follows its newest message again). */
  sent(): void;
}

/** What the box holds when it is not a new prompt: a waiting prompt's text (entry `index`), or an
 *  earlier prompt to resend (`leftOut`: its blocks that did not come back as chips). */
type Mode = { kind: "queued"; index: number } | { kind: "resend"; leftOut: number };

/** What the box holds for one session: kept while another session is in front. */
export interface PromptDraft {
  text: string;
  caret: number;
  mode: Mode | null;
}

type Shown =
  | { kind: "commands"; items: CommandItem[] }
  | { kind: "mention"; mention: Mention; items: MentionItem[]; complete: boolean };

const HINT_MS = 4000;
/** While the sidecar's first listing runs (`complete: false`), the mention is asked again this
 *  long after an answer when no key came meanwhile, at most `REASKS` times: a user who typed
 *  `@hel` and stopped sees the files once they are listed. */
const REASK_MS = 150;
/** How long a command's wish for the focus lasts, waiting for the chat to get it. */
const FOCUS_WAIT_MS = 2000;
const REASKS = 40;

export class PromptBox {
  private shown: Shown | null = null;
  private mode: Mode | null = null;
  private selected = 0;
  /** The last `findFiles` asked, and for which mention. */
  private asked = 0;
  private asking: Mention | null = null;
  /** A mention closed with Escape stays closed until another one starts. */
  private dismissed: number | null = null;
  private readonly history = new PromptHistory();
  /** Whether the history was asked for since the box last got the focus (other editors and
   *  commands send prompts too: it is asked again at each focus). */
  private fresh = false;
  /** ↑ came before the history did: taken once it arrives, if the box still holds `value`. */
  private pendingUp: string | null = null;
  private hintTimer: ReturnType<typeof setTimeout> | undefined;
  private reask: ReturnType<typeof setTimeout> | undefined;
  private reasked = 0;
  /** When a command asked for the focus before the chat had it (0: none asked). */
  private focusWanted = 0;

  constructor(private readonly d: PromptBoxDeps) {
    const input = d.input;
    input.addEventListener("input", () => {
      // An emptied box is the user's own again: ↑ starts from the newest prompt.
      if (input.value === "" && this.history.walking) this.history.endWalk();
      this.selected = 0;
      this.update();
    });
    input.addEventListener("keydown", (e) => this.key(e));
    input.addEventListener("focus", () => {
      if (this.history.walking) return;
      this.fresh = false;
      d.post({ type: "history" });
    });
    // The chat got the focus a command asked for: the box takes it (unless the user went on).
    window.addEventListener("focus", () => {
      const asked = this.focusWanted;
      this.focusWanted = 0;
      if (Date.now() - asked < FOCUS_WAIT_MS && document.activeElement === document.body) this.setInput("");
    });
    input.addEventListener("paste", (e) => this.paste(e));
    input.addEventListener("dragover", (e) => e.preventDefault());
    input.addEventListener("drop", (e) => this.drop(e));
    // A click on an item must not take the focus away from the box first.
    d.list.addEventListener("mousedown", (e) => e.preventDefault());
  }

  /** Put text into the box and focus it; no text: only the focus (the commands that bring the
   *  chat to the front: "ACP: Send a Prompt" without text, Open the Chat, Send the Selection to
   *  the Chat), what the user was writing kept. The focus only while the chat has it (or when it
   *  gets it, soon after): the user may have gone on to an editor meanwhile. */
  setInput(text: string, mode?: "resend", leftOut = 0): void {
    if (text === "" && mode === undefined && !document.hasFocus()) {
      this.focusWanted = Date.now();
      return;
    }
    if (text !== "") this.d.input.value = text;
    if (mode === "resend") this.enter({ kind: "resend", leftOut });
    this.d.input.focus();
    const end = this.d.input.value.length;
    this.d.input.setSelectionRange(end, end);
    this.update();
  }

  /** "Edit" on a waiting prompt: its text into the box, Enter saves it in place. */
  editQueued(index: number): void {
    const entry = userMessageAt(this.d.session(), index);
    if (entry === null || entry.queued !== true) return;
    this.enter({ kind: "queued", index });
    this.d.input.value = typedText(entry.content);
    this.setInput("");
  }

  /** What the box holds now, for the session in front (kept while another one is). */
  draft(): PromptDraft {
    const input = this.d.input;
    return { text: input.value, caret: input.selectionStart ?? input.value.length, mode: this.mode };
  }

  /** Put back what the box held for the session now in front (undefined: empty). The focus stays
   *  where it is. */
  restore(draft: PromptDraft | undefined): void {
    this.close();
    const input = this.d.input;
    input.value = draft?.text ?? "";
    this.enter(draft?.mode ?? null);
    const caret = Math.min(draft?.caret ?? 0, input.value.length);
    input.setSelectionRange(caret, caret);
  }

  /** Stop editing: a waiting prompt's edit is dropped (the box emptied), an earlier prompt's
   *  text stays, to be sent as a new prompt. */
  leaveMode(): void {
    if (this.mode?.kind === "queued") this.d.input.value = "";
    this.enter(null);
    this.d.input.focus();
  }

  private enter(mode: Mode | null): void {
    this.mode = mode;
    const line = this.d.mode;
    line.hidden = mode === null;
    const stop = `<button data-act="leaveMode" title="Stop editing (Escape)" aria-label="Stop editing">×</button>`;
    if (mode === null) line.innerHTML = "";
    else if (mode.kind === "queued") {
      line.innerHTML = `<span>✎ Editing the waiting prompt: Enter saves it, Escape stops.</span>${stop}`;
    } else {
      const left =
        mode.leftOut > 0
          ? ` ${mode.leftOut} attached block${mode.leftOut === 1 ? "" : "s"} (text) not brought back.`
          : "";
      line.innerHTML = `<span>↻ Edit and resend: Enter asks where it goes (this session, a fork, a new session).${esc(left)}</span>${stop}`;
    }
    this.d.input.classList.toggle("editing", mode !== null);
  }

  /** A prompt reached the session (from here, a command, another editor): the history is asked
   *  again before the next ↑ walks it. */
  historyStale(): void {
    if (!this.history.walking) this.fresh = false;
  }

  /** The answer to a `findFiles`: drawn only if it answers the mention still being typed. */
  files(seq: number, files: FoundFile[], complete: boolean): void {
    if (seq !== this.asked || this.asking === null) return;
    const now = this.mention();
    if (now === null || now.start !== this.asking.start || now.query !== this.asking.query) return;
    this.shown = { kind: "mention", mention: now, items: mentionItems(now.query, files), complete };
    this.selected = Math.min(this.selected, Math.max(0, this.shown.items.length - 1));
    this.draw();
    if (!complete && this.reasked < REASKS) {
      this.reask = setTimeout(() => {
        this.reasked += 1;
        this.ask(now);
      }, REASK_MS);
    }
  }

  historyArrived(prompts: string[]): void {
    this.history.load(prompts);
    this.fresh = true;
    const pending = this.pendingUp;
    this.pendingUp = null;
    if (pending !== null && pending === this.d.input.value) this.walk("up");
  }

  /** The box's content may need another list (the session's commands changed). */
  refresh(): void {
    if (this.shown?.kind === "commands") this.update();
    // The waiting prompt being edited went to the agent (or was removed) meanwhile.
    const mode = this.mode;
    if (mode?.kind === "queued" && userMessageAt(this.d.session(), mode.index)?.queued !== true) {
      this.enter(null);
      this.hint(
        "That prompt is no longer waiting (it went to the agent, or was removed): Enter sends this as a new prompt.",
      );
    }
  }

  choose(index: number): void {
    const shown = this.shown;
    const input = this.d.input;
    if (shown === null) return;
    if (shown.kind === "commands") {
      const c = shown.items[index];
      if (c === undefined) return;
      input.value = `/${c.name} `;
    } else {
      const item = shown.items[index];
      if (item === undefined) return;
      const next = applyMention(input.value, shown.mention, item);
      input.value = next.text;
      input.setSelectionRange(next.caret, next.caret);
      this.d.post(
        item.kind === "file"
          ? { type: "attachFound", uri: item.file.uri, path: item.file.path }
          : { type: "attachUrl", url: item.url },
      );
    }
    input.focus();
    this.close();
  }

  send(): void {
    const input = this.d.input;
    const text = input.value.trim();
    if (text === "") return;
    this.d.sent();
    this.history.endWalk();
    this.fresh = false; // the next ↑ asks the sidecar: it holds what went, never a removed prompt
    const mode = this.mode;
    this.enter(null);
    if (mode?.kind === "queued") this.d.post({ type: "editQueued", index: mode.index, text });
    else if (mode?.kind === "resend") this.d.post({ type: "resend", text });
    else this.d.post({ type: "prompt", text });
    input.value = "";
    this.close();
  }

  private mention(): Mention | null {
    const input = this.d.input;
    return mentionAt(input.value, input.selectionStart ?? input.value.length);
  }

  private update(): void {
    const commands = matchCommands(this.d.input.value, commandItems(this.d.session()?.availableCommands ?? null));
    if (commands.length > 0) {
      this.shown = { kind: "commands", items: commands };
      this.selected = Math.min(this.selected, commands.length - 1);
      this.draw();
      return;
    }
    const m = this.mention();
    if (m === null || m.start === this.dismissed) {
      if (m === null) this.dismissed = null;
      this.close();
      return;
    }
    this.dismissed = null;
    if (!needsFiles(m.query)) {
      this.shown = { kind: "mention", mention: m, items: mentionItems(m.query, []), complete: true };
      this.draw();
      return;
    }
    // Asked at every keystroke: the sidecar answers in about a millisecond once it has listed the
    // workspace, and `complete: false` says to ask again on the next one. Until the answer, the
    // list drawn stays (no flicker), pointed at the mention as it is now.
    this.reasked = 0;
    this.ask(m);
    if (this.shown?.kind === "mention") this.shown.mention = m;
    else if (this.shown !== null) this.close();
  }

  private ask(m: Mention): void {
    clearTimeout(this.reask);
    this.asked += 1;
    this.asking = m;
    this.d.post({ type: "findFiles", seq: this.asked, query: m.query });
  }

  private close(): void {
    clearTimeout(this.reask);
    this.shown = null;
    this.asking = null;
    this.draw();
  }

  private draw(): void {
    const list = this.d.list;
    const shown = this.shown;
    list.toggleAttribute("hidden", shown === null);
    if (shown === null) {
      list.innerHTML = "";
      return;
    }
    const row = (i: number, html: string): string =>
      `<div class="completion${i === this.selected ? " selected" : ""}" role="option" data-act="pick" data-index="${i}">${html}</div>`;
    if (shown.kind === "commands") {
      list.innerHTML = shown.items
        .map((c, i) => row(i, `<b>/${esc(c.name)}</b> ${esc(c.description)}${c.hint ? ` <i>${esc(c.hint)}</i>` : ""}`))
        .join("");
      return;
    }
    if (shown.items.length === 0) {
      const why = shown.complete ? `No file matches “${esc(shown.mention.query)}”` : "Listing the workspace's files…";
      list.innerHTML = `<div class="completion empty">${why}</div>`;
      return;
    }
    list.innerHTML = shown.items
      .map((item, i) => {
        if (item.kind === "url") return row(i, `↗ Attach the web page <b>${esc(item.url)}</b>`);
        const { name, dir } = splitPath(item.file.path);
        const open = item.file.open ? ` <span class="tag">open</span>` : "";
        return row(i, `<span class="file-name">${esc(name)}</span> <span class="file-dir">${esc(dir)}</span>${open}`);
      })
      .join("");
    list.querySelector(".selected")?.scrollIntoView({ block: "nearest" });
  }

  private key(e: KeyboardEvent): void {
    const shown = this.shown;
    const count = shown?.items.length ?? 0;
    if (shown !== null && count > 0 && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      this.selected = (this.selected + (e.key === "ArrowDown" ? 1 : count - 1)) % count;
      this.draw();
      e.preventDefault();
    } else if (shown !== null && count > 0 && (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey))) {
      this.choose(this.selected);
      e.preventDefault();
    } else if (e.key === "Escape" && shown !== null) {
      if (shown.kind === "mention") this.dismissed = shown.mention.start;
      this.close();
      e.preventDefault();
    } else if (e.key === "Escape" && this.mode !== null) {
      this.leaveMode();
      e.preventDefault();
    } else if (e.key === "Escape") {
      this.d.post({ type: "cancel" });
    } else if (e.key === "Enter" && !e.shiftKey) {
      this.send();
      e.preventDefault();
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && !e.shiftKey && !e.altKey && !e.metaKey && !e.ctrlKey) {
      if (this.walk(e.key === "ArrowUp" ? "up" : "down")) e.preventDefault();
    }
  }

  /** ↑/↓ through earlier prompts; false when the key is not the history's (it moves the caret). */
  private walk(way: "up" | "down"): boolean {
    const input = this.d.input;
    const caret = { start: input.selectionStart ?? 0, end: input.selectionEnd ?? 0 };
    if (way === "up" && !this.fresh && !this.history.walking) {
      // The first ↑ can come before the history: it is asked for, and this ↑ waits for it.
      if (input.value !== "" && !(caret.start === 0 && caret.end === 0)) return false;
      this.pendingUp = input.value;
      this.d.post({ type: "history" });
      return true;
    }
    const next = way === "up" ? this.history.up(input.value, caret) : this.history.down(input.value, caret);
    if (next === null) return false;
    input.value = next;
    input.setSelectionRange(next.length, next.length);
    this.close();
    return true;
  }

  private hint(text: string): void {
    const hint = this.d.hint;
    hint.textContent = text;
    hint.hidden = false;
    if (this.hintTimer !== undefined) clearTimeout(this.hintTimer);
    this.hintTimer = setTimeout(() => (hint.hidden = true), HINT_MS);
  }

  private paste(e: ClipboardEvent): void {
    const files = Array.from(e.clipboardData?.files ?? []).filter((f) => f.type.startsWith("image/"));
    if (files.length === 0) return;
    // Text pasted along with an image (some apps put both) still goes in when images cannot.
    if (this.takeImages(files)) e.preventDefault();
  }

  private drop(e: DragEvent): void {
    const data = e.dataTransfer;
    if (data === null) return;
    e.preventDefault();
    const images = Array.from(data.files).filter((f) => f.type.startsWith("image/"));
    if (images.length > 0) {
      this.takeImages(images);
      return;
    }
    // Files dragged from VS Code's explorer or an editor tab come as URIs (hold Shift to drop on a view).
    const uris = droppedUris((type) => data.getData(type));
    if (uris.length > 0) this.d.post({ type: "attachUris", uris });
  }

  /** Attach image files when the agent takes images; a hint says why not otherwise. */
  private takeImages(files: File[]): boolean {
    if (this.d.extras()?.canAttachImages !== true) {
      this.hint("This agent takes no images (it did not announce promptCapabilities.image).");
      return false;
    }
    for (const file of files) {
      if (!IMAGE_TYPES.includes(file.type)) {
        this.hint(`${file.type} is not an image type agents read: PNG, JPEG, GIF or WebP.`);
        continue;
      }
      if (file.size > MAX_IMAGE_BYTES) {
        this.hint(`${file.name || "The image"} is over ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`);
        continue;
      }
      const reader = new FileReader();
      reader.onload = () => {
        const url = typeof reader.result === "string" ? reader.result : "";
        const data = url.slice(url.indexOf(",") + 1);
        if (data !== "") {
          this.d.post({ type: "attachImage", name: file.name || "pasted image", mimeType: file.type, data });
        }
      };
      reader.readAsDataURL(file);
    }
    return true;
  }
}
