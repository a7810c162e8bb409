/**
 * ↑/↓ through the workspace's earlier prompts (`acp/promptHistory`), as in a shell: newest first,
 * and what the user was typing kept aside and brought back by ↓ past the newest.
 *
 * The keys walk the history only where they have nothing else to do: ↑ in an empty prompt, in a
 * prompt still showing an earlier one unchanged, or with the caret at the very start (a first ↑
 * in a one-line prompt takes it there); ↓ while walking, in an unchanged prompt or with the caret
 * at the very end. Elsewhere they move the caret between lines as usual.
 *
 * Pure: the webview feeds it the text and the caret; the unit tests do the same.
 */

export interface Caret {
  /** selectionStart and selectionEnd of the prompt box. */
  start: number;
  end: number;
}

export class PromptHistory {
  /** Newest first. */
  private prompts: string[] = [];
  /** Which earlier prompt is shown: -1 for none (the user's own text). */
  private index = -1;
  private draft = "";

  /** The sidecar's history (oldest first, as `acp/promptHistory` answers). Not while walking:
   *  the prompt shown would change under the user. */
  load(oldestFirst: readonly string[]): void {
    if (this.index !== -1) return;
    this.prompts = [...oldestFirst].reverse();
  }

  /** Walking ends: a prompt was just sent, or the box was emptied (the next ↑ starts from the
   *  newest again, not where the walk was). A prompt sent is not added here: the sidecar's
   *  history holds a prompt once it went to the agent, as it then said (one that waits its turn
   *  may still be edited or removed), and the box asks for it again before the next ↑. */
  endWalk(): void {
    this.index = -1;
    this.draft = "";
  }

  get walking(): boolean {
    return this.index !== -1;
  }

  /** The text after ↑, or null when ↑ is not the history's (the key then does what it does). */
  up(value: string, caret: Caret): string | null {
    const unchanged = this.index !== -1 && value === this.prompts[this.index];
    const atStart = caret.start === 0 && caret.end === 0;
    if (!(value === "" || unchanged || atStart)) return null;
    if (this.index + 1 >= this.prompts.length) return null;
    if (this.index === -1) this.draft = value;
    this.index += 1;
    return this.prompts[this.index] ?? null;
  }

  /** The text after ↓, or null when ↓ is not the history's. Past the newest: the user's own text. */
  down(value: string, caret: Caret): string | null {
    if (this.index === -1) return null;
    const unchanged = value === this.prompts[this.index];
    const atEnd = caret.start === value.length && caret.end === value.length;
    if (!(unchanged || atEnd)) return null;
    this.index -= 1;
    return this.index === -1 ? this.draft : (this.prompts[this.index] ?? null);
  }
}
