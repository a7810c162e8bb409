/**
 * The notice that a turn ended while the user was elsewhere: when to show it and what it says.
 * Pure (no vscode): the host asks `noticeWanted` with what VS Code says of the window and the
 * chat view, and shows `turnEndMessage` with an action that opens the chat.
 */

/** The action of every notice: it opens the chat, nothing else. */
export const OPEN_CHAT = "Open the chat";

/** Only when the user could not see the chat: the window is not focused, or the chat is hidden. */
export function noticeWanted(where: { windowFocused: boolean; chatVisible: boolean }): boolean {
  return !where.windowFocused || !where.chatVisible;
}

const ENDINGS: Readonly<Record<string, string>> = {
  end_turn: "finished its turn",
  max_tokens: "stopped: it reached its token limit",
  max_turn_requests: "stopped: it made as many model requests as a turn may",
  refusal: "refused to go on",
  error: "stopped with an error (see the chat)",
};

/**
 * "acp-editor demo agent finished its turn; 2 changes wait for your review." Null for a turn the
 * user cancelled (they know), and for no stop reason at all.
 */
export function turnEndMessage(agentName: string, stopReason: string | null, pendingReview = 0): string | null {
  if (stopReason === null || stopReason === "cancelled") return null;
  const ending = ENDINGS[stopReason] ?? `stopped (${stopReason})`;
  const review =
    pendingReview > 0
      ? `; ${pendingReview} ${pendingReview === 1 ? "change waits" : "changes wait"} for your review`
      : "";
  return `${agentName} ${ending}${review}.`;
}
