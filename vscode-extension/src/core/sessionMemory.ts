/**
 * What the chat keeps per session while another one is in front: the prompt being written (and
 * whether it edits a waiting or an earlier prompt), the transcript's scroll position, whether it
 * follows the newest message. A switch saves the state of the session that leaves and gives back
 * what was kept for the one that comes, so switching loses nothing.
 *
 * Pure and DOM-free: the webview script holds one, the unit tests drive it.
 */

export class SessionMemory<T> {
  private readonly kept = new Map<string, T>();
  private front: string | null = null;
  private started = false;

  /** The session drawn now (null: none yet). */
  get current(): string | null {
    return this.front;
  }

  /**
   * The chat now draws `next`. When that is another session than before, `save()` (what is on
   * screen now) is kept for the one before and `{ switched: true, restored }` returned, with what
   * was kept for `next` (undefined: it was never left, so it starts empty). A redraw of the same
   * session, and the first session after none (a prompt written before any session existed
   * goes to the session it created), are not switches: `{ switched: false }`.
   */
  switchTo(next: string | null, save: () => T): { switched: boolean; restored?: T } {
    const before = this.front;
    this.front = next;
    const first = !this.started;
    this.started = true;
    if (before === next || first || before === null) return { switched: false };
    this.kept.set(before, save());
    if (next === null) return { switched: true };
    const restored = this.kept.get(next);
    this.kept.delete(next);
    return restored === undefined ? { switched: true } : { switched: true, restored };
  }

  /** Forget the sessions that are no longer open. */
  keepOnly(open: Iterable<string>): void {
    const alive = new Set(open);
    for (const id of [...this.kept.keys()]) if (!alive.has(id)) this.kept.delete(id);
  }

  /** What is kept for a session not in front (for tests and the strip). */
  peek(sessionId: string): T | undefined {
    return this.kept.get(sessionId);
  }
}
